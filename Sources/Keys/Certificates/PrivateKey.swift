import COpenSSL

/// A private key of any type OpenSSL supports, for TLS identities: RSA (Apple's push certificates use
/// RSA 2048) or EC (P-256 for generated certificates).
///
/// Loads PEM: PKCS#8 (`PRIVATE KEY`, or `ENCRYPTED PRIVATE KEY` with a password), PKCS#1
/// (`RSA PRIVATE KEY`) and SEC1 (`EC PRIVATE KEY`). OpenSSL never prompts for a passphrase.
/// For ES256 provider tokens use `P256PrivateKey`, which checks the curve.
/// Thread-safety: immutable; may be used from any thread at once. Lifecycle: owns its `EVP_PKEY`.
// SAFETY: the EVP_PKEY is never mutated after init; OpenSSL 3 allows concurrent use of one key for signing,
// and TLS contexts that take it up-ref it without mutating it.
public final class PrivateKey: @unchecked Sendable {
    /// The `EVP_PKEY *`, for the TLS layer and the certificate builder; borrowed.
    package let pkey: OpaquePointer

    /// What to generate.
    public enum Kind: Sendable, Equatable {
        /// EC on the NIST P-256 curve (prime256v1).
        case p256
        /// RSA with a modulus of `bits` bits (2048 or more).
        case rsa(bits: Int)
    }

    /// Takes ownership of `pkey`.
    package init(owning pkey: OpaquePointer) {
        self.pkey = pkey
    }

    deinit {
        EVP_PKEY_free(pkey)
    }

    /// Loads a PEM private key; `password` decrypts an encrypted one and is ignored for a plain one.
    ///
    /// Errors never contain the password or the key text.
    public convenience init(pem: String, password: String? = nil) throws(KeysError) {
        try self.init(pemBytes: Array(pem.utf8), password: password)
    }

    /// Loads a PEM private key file; errors name the path but never the file's contents or the password.
    public convenience init(contentsOfFile path: String, password: String? = nil) throws(KeysError) {
        let bytes = try KeyFile.contents(of: path)
        do {
            try self.init(pemBytes: bytes, password: password)
        } catch {
            throw error.from(path: path)
        }
    }

    /// A freshly generated key, for tests, tooling and the emulator.
    public static func generate(_ kind: Kind = .p256) throws(KeysError) -> PrivateKey {
        OpenSSLError.clear()
        let algorithm = kind == .p256 ? "EC" : "RSA"
        guard let context = EVP_PKEY_CTX_new_from_name(nil, algorithm, nil) else {
            throw OpenSSLError.failure("EVP_PKEY_CTX_new_from_name")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else { throw OpenSSLError.failure("EVP_PKEY_keygen_init") }
        switch kind {
        case .p256:
            guard EVP_PKEY_CTX_set_group_name(context, "P-256") == 1 else {
                throw OpenSSLError.failure("EVP_PKEY_CTX_set_group_name")
            }
        case .rsa(let bits):
            guard (2048...16384).contains(bits) else {
                throw .invalidCertificateRequest("an RSA key of \(bits) bits; use 2048 to 16384")
            }
            guard EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) == 1 else {
                throw OpenSSLError.failure("EVP_PKEY_CTX_set_rsa_keygen_bits")
            }
        }
        var generated: OpaquePointer? = nil
        guard EVP_PKEY_generate(context, &generated) == 1, let generated else {
            throw OpenSSLError.failure("EVP_PKEY_generate")
        }
        return PrivateKey(owning: generated)
    }

    /// The key's type as OpenSSL names it: `RSA`, `EC`, `ED25519`, ...
    public var typeName: String {
        EVP_PKEY_get0_type_name(pkey).map { String(cString: $0) } ?? "NID \(EVP_PKEY_get_base_id(pkey))"
    }

    /// The key size in bits (the modulus for RSA, the field for EC).
    public var bits: Int {
        Int(EVP_PKEY_get_bits(pkey))
    }

    /// Whether `certificate` holds this key's public half.
    public func matches(_ certificate: Certificate) -> Bool {
        defer { OpenSSLError.clear() }
        return X509_check_private_key(certificate.x509, pkey) == 1
    }

    /// The key as unencrypted PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`).
    public func pkcs8PEM() throws(KeysError) -> String {
        try MemoryBIO.collect(function: "PEM_write_bio_PKCS8PrivateKey", secure: true) { bio in
            PEM_write_bio_PKCS8PrivateKey(bio, pkey, nil, nil, 0, nil, nil)
        }
    }

    private convenience init(pemBytes: [UInt8], password: String?) throws(KeysError) {
        let text = PEMText(pemBytes)
        var askedForPassphrase = false
        OpenSSLError.clear()
        let loaded = try text.withMemoryBIO { bio in
            if let password {
                // With no callback, OpenSSL reads the passphrase from `u` as a C string and never prompts.
                return password.withCString {
                    PEM_read_bio_PrivateKey(bio, nil, nil, UnsafeMutableRawPointer(mutating: $0))
                }
            }
            return withUnsafeMutablePointer(to: &askedForPassphrase) { asked in
                PEM_read_bio_PrivateKey(bio, nil, refusePassphrase, asked)
            }
        }
        guard let loaded else {
            let errors = OpenSSLError.drain()
            if askedForPassphrase || text.looksEncrypted {
                if password == nil { throw .passwordRequired() }
                throw .wrongPassword(item: "private key")
            }
            let reason = text.failureReason(
                expected: "private key", accepts: { $0.hasSuffix("PRIVATE KEY") }, errors: errors)
            throw .notPEM(expected: PEMLabel.anyPrivateKeyDescription, reason: reason)
        }
        self.init(owning: loaded)
    }
}
