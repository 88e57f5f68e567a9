import COpenSSL

/// An EC P-256 public key, for verifying ES256 signatures.
///
/// Thread-safety: immutable after init; `verifyES256` may be called from any number of threads at once.
/// Lifecycle: owns its `EVP_PKEY`, freed in `deinit`.
// SAFETY: the EVP_PKEY is never mutated after init, OpenSSL 3 allows concurrent verification with one key,
// and each `verifyES256` call uses its own EVP_MD_CTX.
public final class P256PublicKey: @unchecked Sendable {
    private let pkey: OpaquePointer

    /// Loads a SubjectPublicKeyInfo PEM (`-----BEGIN PUBLIC KEY-----`) holding a P-256 key.
    public init(pem: String) throws(KeysError) {
        let text = PEMText(Array(pem.utf8))
        var askedForPassphrase = false
        OpenSSLError.clear()
        let loaded = try text.withMemoryBIO { bio in
            withUnsafeMutablePointer(to: &askedForPassphrase) { asked in
                PEM_read_bio_PUBKEY(bio, nil, refusePassphrase, asked)
            }
        }
        guard let loaded else {
            let reason = text.failureReason(
                expected: "public key", accepts: { $0 == "PUBLIC KEY" }, errors: OpenSSLError.drain())
            throw .notPEM(expected: PEMLabel.publicKeyDescription, reason: reason)
        }
        do {
            try EVPKey.requireP256(loaded)
        } catch {
            EVP_PKEY_free(loaded)
            throw error
        }
        pkey = loaded
    }

    /// Takes ownership of `pkey`, which the caller has checked is a P-256 key.
    init(owning pkey: OpaquePointer) {
        self.pkey = pkey
    }

    deinit {
        EVP_PKEY_free(pkey)
    }

    /// The key as SubjectPublicKeyInfo PEM (`-----BEGIN PUBLIC KEY-----`).
    public func pem() throws(KeysError) -> String {
        try MemoryBIO.collect(function: "PEM_write_bio_PUBKEY") { bio in
            PEM_write_bio_PUBKEY(bio, pkey)
        }
    }

    /// Whether `signature` is a valid ES256 signature of `message` by this key.
    ///
    /// Accepts the 64-byte raw R||S (JOSE) form or a DER ECDSA-Sig-Value; anything malformed is `false`.
    public func verifyES256(signature: [UInt8], message: [UInt8]) -> Bool {
        defer { OpenSSLError.clear() }  // a failed verification leaves entries no caller will drain
        if signature.count == 2 * ECDSASignature.scalarSize,
            let der = try? ECDSASignature.rawToDER(signature),
            verifyDER(der, message: message)
        {
            return true
        }
        return verifyDER(signature, message: message)
    }

    /// OpenSSL checks the DER strictly: trailing bytes and non-minimal encodings are rejected.
    private func verifyDER(_ der: [UInt8], message: [UInt8]) -> Bool {
        guard !der.isEmpty else { return false }
        OpenSSLError.clear()
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, pkey) == 1 else { return false }
        let verified = der.withNonNullBytes { signature, signatureCount in
            message.withNonNullBytes { bytes, count in
                EVP_DigestVerify(context, signature, signatureCount, bytes, count)
            }
        }
        return verified == 1
    }
}
