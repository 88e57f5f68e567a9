import COpenSSL

/// A PKCS#12 (`.p12`) bundle: a certificate, its private key and any extra chain certificates, as Keychain
/// Access exports an APNs push certificate.
///
/// The password is checked against the bundle's MAC first, so a wrong one gives `wrongPassword` naming the
/// file, never the password. Bundles encrypted with legacy algorithms (RC2-40, which older Keychain exports
/// use) need OpenSSL's legacy provider: it is loaded on first need, process-wide, beside the default one.
public struct PKCS12Bundle: Sendable {
    /// The leaf certificate: the identity.
    public let certificate: Certificate
    /// The private key of `certificate`.
    public let privateKey: PrivateKey
    /// Further certificates in the bundle (intermediates), in the bundle's order.
    public let chain: [Certificate]

    /// Loads a `.p12` file; errors name the path and never contain the password.
    public init(contentsOfFile path: String, password: String) throws(KeysError) {
        let bytes = try KeyFile.contents(of: path)
        do {
            try self.init(der: bytes, password: password)
        } catch {
            throw error.from(path: path)
        }
    }

    /// Loads a DER PKCS#12 bundle.
    public init(der: [UInt8], password: String) throws(KeysError) {
        OpenSSLError.clear()
        let parsed = der.withNonNullBytes { bytes, count in
            var cursor: UnsafePointer<UInt8>? = bytes
            return d2i_PKCS12(nil, &cursor, count)
        }
        guard let p12 = parsed else {
            OpenSSLError.clear()
            throw .malformedPKCS12("\(der.count) bytes that are not a DER PKCS#12 (PFX) bundle", path: nil)
        }
        defer { PKCS12_free(p12) }
        try Self.verifyPassword(p12, password)
        let contents = try Self.parse(p12, password)
        let key = contents.privateKey.map { PrivateKey(owning: $0) }  // owned from here on, freed by deinit
        let leafPointers = contents.certificate.map { [$0] } ?? []
        let certificates = try Certificate.owningAll(leafPointers + contents.chain)
        guard let key else { throw .malformedPKCS12("it holds no private key", path: nil) }
        guard !leafPointers.isEmpty, let leaf = certificates.first else {
            throw .malformedPKCS12("it holds no certificate matching its private key", path: nil)
        }
        certificate = leaf
        privateKey = key
        chain = Array(certificates.dropFirst())
    }

    /// Throws `wrongPassword` unless `password` verifies the bundle's MAC (bundles without a MAC pass).
    private static func verifyPassword(_ p12: OpaquePointer, _ password: String) throws(KeysError) {
        guard PKCS12_mac_present(p12) == 1 else { return }
        for attempt in 0..<2 {
            OpenSSLError.clear()
            let count = Int32(password.utf8.count)
            if password.withCString({ PKCS12_verify_mac(p12, $0, count) }) == 1 { return }
            if password.isEmpty, PKCS12_verify_mac(p12, nil, 0) == 1 { return }  // "" and no password differ
            if attempt == 0, LegacyProvider.loadIfUnsupported(OpenSSLError.drain()) { continue }
            break
        }
        OpenSSLError.clear()
        throw .wrongPassword(item: "PKCS#12 bundle")
    }

    private static func parse(
        _ p12: OpaquePointer, _ password: String
    ) throws(KeysError) -> (certificate: OpaquePointer?, privateKey: OpaquePointer?, chain: [OpaquePointer]) {
        var errors: [String] = []
        for attempt in 0..<2 {
            OpenSSLError.clear()
            var pkey: OpaquePointer? = nil
            var x509: OpaquePointer? = nil
            var stack: OpaquePointer? = nil
            if password.withCString({ PKCS12_parse(p12, $0, &pkey, &x509, &stack) }) == 1 {
                return (x509, pkey, X509Stack.takeAll(stack))
            }
            errors = OpenSSLError.drain()
            if attempt == 0, LegacyProvider.loadIfUnsupported(errors) { continue }
            break
        }
        throw .malformedPKCS12("PKCS12_parse failed (\(errors.joined(separator: "; ")))", path: nil)
    }
}

/// OpenSSL's legacy provider (RC2, DES, ...), which OpenSSL 3 does not load by default.
enum LegacyProvider {
    /// Loads the provider if `errors` say an algorithm was unsupported; returns whether a retry may now succeed.
    static func loadIfUnsupported(_ errors: [String]) -> Bool {
        guard errors.contains(where: { $0.contains("unsupported") }) else { return false }
        return handle != 0
    }

    /// The provider, loaded at most once per process and kept for the process's life. The handle is
    /// kept here (its bit pattern, which is `Sendable`) rather than dropped: a dropped handle left the
    /// provider and its library context reachable from nowhere, which LeakSanitizer reported at exit.
    private static let handle: UInt = {
        OpenSSLError.clear()
        defer { OpenSSLError.clear() }
        // retain_fallbacks = 1 keeps the default provider loaded beside it.
        return UInt(bitPattern: OSSL_PROVIDER_try_load(nil, "legacy", 1))
    }()
}
