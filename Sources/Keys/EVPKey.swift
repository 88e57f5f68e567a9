import COpenSSL

/// Checks and conversions on a raw `EVP_PKEY *` shared by the private and public key types.
enum EVPKey {
    /// Curve names OpenSSL may report for P-256.
    static let p256Names: Set<String> = ["prime256v1", "P-256", "secp256r1"]

    /// Throws `unsupportedKeyType` unless `pkey` is an EC key on the named curve P-256.
    static func requireP256(_ pkey: OpaquePointer) throws(KeysError) {
        guard EVP_PKEY_get_base_id(pkey) == EVP_PKEY_EC else {
            let name = EVP_PKEY_get0_type_name(pkey).map { String(cString: $0) }
            throw .unsupportedKeyType(found: name ?? "NID \(EVP_PKEY_get_base_id(pkey))")
        }
        var name = [CChar](repeating: 0, count: 80)
        var length = 0
        OpenSSLError.clear()
        guard EVP_PKEY_get_group_name(pkey, &name, name.count, &length) == 1 else {
            OpenSSLError.clear()
            throw .unsupportedKeyType(found: "EC with explicit curve parameters (no named curve)")
        }
        let group = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard p256Names.contains(group) else {
            throw .unsupportedKeyType(found: "EC on curve \(group)")
        }
    }

    /// A new `EVP_PKEY` holding only the public half of `pkey` (round-tripped through SubjectPublicKeyInfo DER).
    static func publicPart(of pkey: OpaquePointer) throws(KeysError) -> OpaquePointer {
        OpenSSLError.clear()
        let length = i2d_PUBKEY(pkey, nil)
        guard length > 0 else { throw OpenSSLError.failure("i2d_PUBKEY") }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return i2d_PUBKEY(pkey, &cursor)
        }
        guard written == length else { throw OpenSSLError.failure("i2d_PUBKEY") }
        let publicKey = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, buffer.count)
        }
        guard let publicKey else { throw OpenSSLError.failure("d2i_PUBKEY") }
        return publicKey
    }
}

/// A C password callback that refuses, so OpenSSL never prompts on the terminal for an encrypted key.
///
/// It records that it was asked by setting the `Bool` that `userData` points to.
let refusePassphrase: @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32 = {
    _, _, _, userData in
    userData?.storeBytes(of: true, as: Bool.self)
    return -1
}
