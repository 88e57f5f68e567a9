import COpenSSL

/// A certificate authority for tests and the emulator: a self-signed root that issues TLS server and
/// client certificates, including ones shaped like Apple's push certificates.
///
/// Not for production PKI: there is no revocation, and keys live in memory.
/// Thread-safety: immutable; `issue` may be called from any thread at once.
public struct CertificateAuthority: Sendable {
    /// The root certificate: trust this to accept what the authority issues.
    public let certificate: Certificate
    /// The root's signing key.
    public let privateKey: PrivateKey

    /// An authority from an existing root certificate and its key.
    public init(certificate: Certificate, privateKey: PrivateKey) throws(KeysError) {
        guard privateKey.matches(certificate) else {
            throw .invalidCertificateRequest("the private key does not belong to the CA certificate")
        }
        self.certificate = certificate
        self.privateKey = privateKey
    }

    /// A new self-signed root with an EC P-256 key: basicConstraints CA:TRUE, keyUsage keyCertSign and cRLSign.
    public static func generate(
        commonName: String, validity: CertificateValidity = .days(3650)
    ) throws(KeysError) -> CertificateAuthority {
        let key = try PrivateKey.generate(.p256)
        let builder = try CertificateBuilder(subjectKey: key, issuer: nil, validity: validity)
        try builder.addSubject("CN", commonName)
        try builder.addExtension(nid: NID_basic_constraints, "critical,CA:TRUE")
        try builder.addExtension(nid: NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature")
        try builder.addExtension(nid: NID_subject_key_identifier, "hash")
        return try CertificateAuthority(certificate: builder.sign(with: key), privateKey: key)
    }

    /// Issues a leaf certificate signed by this authority.
    ///
    /// - Parameters:
    ///   - commonName: the subject CN (at most 64 characters).
    ///   - subjectAlternativeNames: DNS names and IP addresses (`localhost`, `127.0.0.1`, `::1`); IP literals
    ///     become IP SANs. A `DNS:` or `IP:` prefix forces the kind.
    ///   - isClient: extendedKeyUsage clientAuth (a client identity, such as a push certificate) instead of
    ///     serverAuth.
    ///   - extraSubjectUID: a subject UID, where Apple puts the bundle id of a push certificate.
    ///   - extensions: further extensions, such as `.apns(.development)` or `.apnsTopics(bundleID:)`.
    ///   - validity: 825 days from now unless given; a period in the past makes an expired certificate.
    ///   - key: the leaf's key; a new EC P-256 key unless given.
    public func issue(
        commonName: String,
        subjectAlternativeNames: [String] = [],
        isClient: Bool = false,
        extraSubjectUID: String? = nil,
        extensions: [CertificateExtension] = [],
        validity: CertificateValidity = .days(825),
        key: PrivateKey? = nil
    ) throws(KeysError) -> (certificate: Certificate, privateKey: PrivateKey) {
        let leafKey: PrivateKey
        if let key { leafKey = key } else { leafKey = try PrivateKey.generate(.p256) }
        let builder = try CertificateBuilder(subjectKey: leafKey, issuer: certificate, validity: validity)
        if let extraSubjectUID { try builder.addSubject("UID", extraSubjectUID) }
        try builder.addSubject("CN", commonName)
        try builder.addExtension(nid: NID_basic_constraints, "critical,CA:FALSE")
        let usage = leafKey.typeName == "RSA" ? "digitalSignature,keyEncipherment" : "digitalSignature"
        try builder.addExtension(nid: NID_key_usage, "critical," + usage)
        try builder.addExtension(nid: NID_ext_key_usage, isClient ? "clientAuth" : "serverAuth")
        try builder.addExtension(nid: NID_subject_key_identifier, "hash")
        try builder.addExtension(nid: NID_authority_key_identifier, "keyid:always")
        try builder.addSubjectAlternativeNames(subjectAlternativeNames)
        for custom in extensions {
            try builder.addExtension(custom)
        }
        return (try builder.sign(with: privateKey), leafKey)
    }
}
