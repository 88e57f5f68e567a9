import COpenSSL

/// An EC P-256 private key, such as the `.p8` signing key Apple issues for provider tokens.
///
/// Loads PKCS#8 (`-----BEGIN PRIVATE KEY-----`) and SEC1 (`-----BEGIN EC PRIVATE KEY-----`) PEM, unencrypted.
/// Thread-safety: immutable after init; `signES256` may be called from any number of threads at once.
/// Lifecycle: owns its `EVP_PKEY`, freed in `deinit`.
// SAFETY: the EVP_PKEY is never mutated after init, OpenSSL 3 allows concurrent signing with one key,
// and each `signES256` call uses its own EVP_MD_CTX.
public final class P256PrivateKey: @unchecked Sendable {
    private let pkey: OpaquePointer

    /// The matching public key, computed once at load.
    public let publicKey: P256PublicKey

    /// Loads a PEM private key: PKCS#8 (Apple `.p8`) or SEC1. Rejects encrypted keys and non-P-256 keys.
    public convenience init(pem: String) throws(KeysError) {
        try self.init(pemBytes: Array(pem.utf8))
    }

    /// Loads a PEM private key file; errors name the path but never the file's contents.
    public convenience init(contentsOfFile path: String) throws(KeysError) {
        let bytes = try KeyFile.contents(of: path)
        do {
            try self.init(pemBytes: bytes)
        } catch {
            throw error.from(path: path)
        }
    }

    /// A freshly generated key, for tests and tooling.
    public static func generate() throws(KeysError) -> P256PrivateKey {
        OpenSSLError.clear()
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw OpenSSLError.failure("EVP_PKEY_CTX_new_from_name")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else { throw OpenSSLError.failure("EVP_PKEY_keygen_init") }
        guard EVP_PKEY_CTX_set_group_name(context, "P-256") == 1 else {
            throw OpenSSLError.failure("EVP_PKEY_CTX_set_group_name")
        }
        var generated: OpaquePointer? = nil
        guard EVP_PKEY_generate(context, &generated) == 1, let generated else {
            throw OpenSSLError.failure("EVP_PKEY_generate")
        }
        return try P256PrivateKey(owning: generated)
    }

    private convenience init(pemBytes: [UInt8]) throws(KeysError) {
        let text = PEMText(pemBytes)
        var askedForPassphrase = false
        OpenSSLError.clear()
        let loaded = try text.withMemoryBIO { bio in
            withUnsafeMutablePointer(to: &askedForPassphrase) { asked in
                PEM_read_bio_PrivateKey(bio, nil, refusePassphrase, asked)
            }
        }
        guard let loaded else {
            let errors = OpenSSLError.drain()
            if askedForPassphrase || text.looksEncrypted { throw .encryptedKey() }
            let reason = text.failureReason(
                expected: "private key", accepts: { $0.hasSuffix("PRIVATE KEY") }, errors: errors)
            throw .notPEM(expected: PEMLabel.privateKeyDescription, reason: reason)
        }
        try self.init(owning: loaded)
    }

    /// Takes ownership of `pkey`, freeing it if it is not a P-256 private key.
    private init(owning pkey: OpaquePointer) throws(KeysError) {
        do {
            try EVPKey.requireP256(pkey)
            publicKey = P256PublicKey(owning: try EVPKey.publicPart(of: pkey))
        } catch {
            EVP_PKEY_free(pkey)
            throw error
        }
        self.pkey = pkey
    }

    deinit {
        EVP_PKEY_free(pkey)
    }

    /// The key as unencrypted PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), the form of Apple's `.p8` files.
    public func pkcs8PEM() throws(KeysError) -> String {
        try MemoryBIO.collect(function: "PEM_write_bio_PKCS8PrivateKey", secure: true) { bio in
            PEM_write_bio_PKCS8PrivateKey(bio, pkey, nil, nil, 0, nil, nil)
        }
    }

    /// Signs `message` with ECDSA P-256 over SHA-256 (JWS `ES256`); returns the 64-byte raw R||S form.
    public func signES256(_ message: [UInt8]) throws(KeysError) -> [UInt8] {
        OpenSSLError.clear()
        guard let context = EVP_MD_CTX_new() else { throw OpenSSLError.failure("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pkey) == 1 else {
            throw OpenSSLError.failure("EVP_DigestSignInit")
        }
        var der = [UInt8](repeating: 0, count: Int(max(EVP_PKEY_get_size(pkey), 0)))
        var length = der.count
        let signed = message.withNonNullBytes { bytes, count in
            der.withUnsafeMutableBufferPointer { EVP_DigestSign(context, $0.baseAddress, &length, bytes, count) }
        }
        guard signed == 1, length <= der.count else { throw OpenSSLError.failure("EVP_DigestSign") }
        return try ECDSASignature.derToRaw(Array(der.prefix(length)))
    }
}
