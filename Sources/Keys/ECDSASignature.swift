import COpenSSL

/// Conversions between the two encodings of an ECDSA P-256 signature.
///
/// JWS (RFC 7518 section 3.4) uses raw R||S, each scalar big-endian and left-padded to 32 bytes;
/// OpenSSL produces and consumes DER `ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }`.
public enum ECDSASignature {
    /// Bytes in each of R and S for P-256.
    static let scalarSize = 32

    /// Encodes a 64-byte raw R||S signature as DER.
    public static func rawToDER(_ raw: [UInt8]) throws(KeysError) -> [UInt8] {
        guard raw.count == 2 * scalarSize else {
            throw .malformedSignature("raw signature is \(raw.count) bytes, not \(2 * scalarSize)")
        }
        OpenSSLError.clear()
        guard let signature = ECDSA_SIG_new() else { throw OpenSSLError.failure("ECDSA_SIG_new") }
        defer { ECDSA_SIG_free(signature) }
        let (r, s) = raw.withNonNullBytes { bytes, _ in
            (BN_bin2bn(bytes, Int32(scalarSize), nil), BN_bin2bn(bytes + scalarSize, Int32(scalarSize), nil))
        }
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            throw OpenSSLError.failure("ECDSA_SIG_set0")
        }
        return try encode(signature)
    }

    /// Decodes a DER ECDSA-Sig-Value into the 64-byte raw R||S form.
    ///
    /// Rejects trailing bytes, non-canonical DER, negative scalars and scalars longer than 32 bytes.
    public static func derToRaw(_ der: [UInt8]) throws(KeysError) -> [UInt8] {
        guard !der.isEmpty else { throw .malformedSignature("DER signature is empty") }
        OpenSSLError.clear()
        var consumed = 0
        let decoded = der.withNonNullBytes { bytes, count in
            var cursor: UnsafePointer<UInt8>? = bytes
            let signature = d2i_ECDSA_SIG(nil, &cursor, count)
            consumed = cursor.map { $0 - bytes } ?? 0
            return signature
        }
        guard let signature = decoded else {
            OpenSSLError.clear()
            throw .malformedSignature("\(der.count) bytes that are not a DER ECDSA-Sig-Value")
        }
        defer { ECDSA_SIG_free(signature) }
        guard consumed == der.count else {
            throw .malformedSignature("\(der.count - consumed) bytes after the DER ECDSA-Sig-Value")
        }
        guard (try? encode(signature)) == der else {
            throw .malformedSignature("the DER ECDSA-Sig-Value is not in canonical (minimal) form")
        }
        var r: OpaquePointer? = nil
        var s: OpaquePointer? = nil
        ECDSA_SIG_get0(signature, &r, &s)
        guard let r, let s else { throw .malformedSignature("R or S is missing") }
        guard BN_is_negative(r) == 0, BN_is_negative(s) == 0 else {
            throw .malformedSignature("R or S is negative")
        }
        var raw = [UInt8](repeating: 0, count: 2 * scalarSize)
        let padded = raw.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return BN_bn2binpad(r, base, Int32(scalarSize)) == Int32(scalarSize)
                && BN_bn2binpad(s, base + scalarSize, Int32(scalarSize)) == Int32(scalarSize)
        }
        guard padded else { throw .malformedSignature("R or S is longer than \(scalarSize) bytes") }
        return raw
    }

    /// The canonical DER encoding of an `ECDSA_SIG`.
    private static func encode(_ signature: OpaquePointer) throws(KeysError) -> [UInt8] {
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { throw OpenSSLError.failure("i2d_ECDSA_SIG") }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        guard written == length else { throw OpenSSLError.failure("i2d_ECDSA_SIG") }
        return der
    }
}
