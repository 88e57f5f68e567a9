import COpenSSL

/// An X.509 certificate: a TLS identity or trust root, or an Apple push certificate.
///
/// Loads PEM (one certificate, or a chain with `chain(pem:)`) and DER. Fields are in
/// `Certificate+Fields.swift`, the APNs extensions in `Certificate+APNs.swift`.
/// Thread-safety: immutable; every property and method may be used from any thread at once.
/// Lifecycle: owns one reference to its `X509`, released in `deinit`.
// SAFETY: no API mutates the X509 after init. OpenSSL caches decoded extensions inside the X509 on first
// use; init forces that cache (X509_check_purpose) so later readers only read. OpenSSL up-refs the X509
// when a TLS context or trust store takes it, and never mutates it there either.
public final class Certificate: @unchecked Sendable {
    /// The `X509 *`, for the TLS layer; borrowed: up-ref it to keep it past this object's life.
    package let x509: OpaquePointer

    /// Start of the validity period, UNIX seconds.
    public let notBefore: Int64
    /// End of the validity period, UNIX seconds.
    public let notAfter: Int64

    /// Takes ownership of `x509`, freeing it if its validity cannot be decoded.
    package init(owning x509: OpaquePointer) throws(KeysError) {
        guard let notBefore = Self.unixTime(X509_get0_notBefore(x509)),
            let notAfter = Self.unixTime(X509_get0_notAfter(x509))
        else {
            X509_free(x509)
            throw .malformedCertificate("its validity dates cannot be decoded")
        }
        _ = X509_check_purpose(x509, -1, 0)  // fills OpenSSL's extension cache now, see SAFETY
        OpenSSLError.clear()
        self.x509 = x509
        self.notBefore = notBefore
        self.notAfter = notAfter
    }

    /// Shares `x509` with its current owner (up-refs it).
    package convenience init(retaining x509: OpaquePointer) throws(KeysError) {
        X509_up_ref(x509)
        try self.init(owning: x509)
    }

    deinit {
        X509_free(x509)
    }

    /// Loads the first certificate of a PEM text (`-----BEGIN CERTIFICATE-----`); other blocks are skipped.
    public convenience init(pem: String) throws(KeysError) {
        let chain = try Self.chain(pemBytes: Array(pem.utf8))
        guard let first = chain.first else {
            throw .notPEM(expected: PEMLabel.certificateDescription, reason: "the input holds no certificate")
        }
        try self.init(retaining: first.x509)
    }

    /// Loads one DER certificate; trailing bytes are an error.
    public convenience init(der: [UInt8]) throws(KeysError) {
        guard !der.isEmpty else { throw .malformedCertificate("the DER input is empty") }
        OpenSSLError.clear()
        var consumed = 0
        let decoded = der.withNonNullBytes { bytes, count in
            var cursor: UnsafePointer<UInt8>? = bytes
            let x509 = d2i_X509(nil, &cursor, count)
            consumed = cursor.map { $0 - bytes } ?? 0
            return x509
        }
        guard let decoded else {
            let errors = OpenSSLError.drain()
            throw .malformedCertificate(
                "\(der.count) bytes that are not a DER certificate (\(errors.joined(separator: "; ")))")
        }
        guard consumed == der.count else {
            X509_free(decoded)
            throw .malformedCertificate("\(der.count - consumed) bytes after the DER certificate")
        }
        try self.init(owning: decoded)
    }

    /// Every certificate of a PEM text, in order (leaf first, for a chain file). Non-certificate blocks are skipped.
    public static func chain(pem: String) throws(KeysError) -> [Certificate] {
        try chain(pemBytes: Array(pem.utf8))
    }

    /// Every certificate of a PEM file, in order; errors name the path but never the file's contents.
    public static func chain(contentsOfFile path: String) throws(KeysError) -> [Certificate] {
        let bytes = try KeyFile.contents(of: path)
        do {
            return try chain(pemBytes: bytes)
        } catch {
            throw error.from(path: path)
        }
    }

    /// The certificate as DER.
    public func der() throws(KeysError) -> [UInt8] {
        OpenSSLError.clear()
        let length = i2d_X509(x509, nil)
        guard length > 0 else { throw OpenSSLError.failure("i2d_X509") }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return i2d_X509(x509, &cursor)
        }
        guard written == length else { throw OpenSSLError.failure("i2d_X509") }
        return der
    }

    /// The certificate as PEM (`-----BEGIN CERTIFICATE-----`).
    public func pem() throws(KeysError) -> String {
        try MemoryBIO.collect(function: "PEM_write_bio_X509") { bio in
            PEM_write_bio_X509(bio, x509)
        }
    }

    private static func chain(pemBytes: [UInt8]) throws(KeysError) -> [Certificate] {
        let text = PEMText(pemBytes)
        let expected = text.labels.filter { $0 == "CERTIFICATE" || $0 == "X509 CERTIFICATE" }.count
        OpenSSLError.clear()
        let decoded: [OpaquePointer] = try text.withMemoryBIO { bio in
            var found: [OpaquePointer] = []
            while let x509 = PEM_read_bio_X509(bio, nil, refusePassphrase, nil) {
                found.append(x509)
            }
            return found
        }
        let errors = OpenSSLError.drain()  // ends with "no start line" after the last block: expected
        guard !decoded.isEmpty else {
            let reason = text.failureReason(
                expected: "certificate", accepts: { $0.hasSuffix("CERTIFICATE") }, errors: errors)
            throw .notPEM(expected: PEMLabel.certificateDescription, reason: reason)
        }
        let certificates = try owningAll(decoded)
        guard certificates.count >= expected else {
            throw .malformedCertificate(
                "PEM certificate \(certificates.count + 1) of \(expected) cannot be decoded"
                    + " (OpenSSL: \(errors.joined(separator: "; ")))")
        }
        return certificates
    }
}

extension Certificate {
    /// Takes ownership of every `X509 *` in `pointers`; if one cannot be wrapped, frees the rest and throws.
    static func owningAll(_ pointers: [OpaquePointer]) throws(KeysError) -> [Certificate] {
        var certificates: [Certificate] = []
        for (index, x509) in pointers.enumerated() {
            do {
                certificates.append(try Certificate(owning: x509))
            } catch {
                for rest in pointers[(index + 1)...] { X509_free(rest) }
                throw error
            }
        }
        return certificates
    }
}

extension Certificate: Equatable {
    /// Whether both are the same certificate (equal DER encodings).
    public static func == (lhs: Certificate, rhs: Certificate) -> Bool {
        lhs === rhs || X509_cmp(lhs.x509, rhs.x509) == 0
    }
}
