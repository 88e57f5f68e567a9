/// An X.509 v3 extension to put in a generated certificate: an OID and its DER-encoded value.
///
/// Apple's push certificates carry private extensions under 1.2.840.113635.100.6.3 (see `APNsEnvironment`
/// and `Certificate.apnsTopics`); the builders here make certificates that look like them for tests and
/// the emulator.
public struct CertificateExtension: Sendable, Equatable {
    /// The extension's OID in dotted form, e.g. `1.2.840.113635.100.6.3.1`.
    public var oid: String
    /// The DER encoding of the extension value (what goes inside the extnValue OCTET STRING).
    public var der: [UInt8]
    /// Whether a verifier that does not understand the extension must reject the certificate.
    public var isCritical: Bool

    public init(oid: String, der: [UInt8], isCritical: Bool = false) {
        self.oid = oid
        self.der = der
        self.isCritical = isCritical
    }

    /// The marker Apple puts on a push certificate valid for `environment`: its OID with an ASN.1 NULL value.
    public static func apns(_ environment: APNsEnvironment) -> CertificateExtension {
        CertificateExtension(oid: environment.oid, der: [DER.null, 0x00])
    }

    /// Apple's topic list (OID 1.2.840.113635.100.6.3.6), in the format `Certificate.apnsTopics` reads.
    ///
    /// Each entry is a topic and its kind, as Apple writes them: `("com.example.app", "app")`,
    /// `("com.example.app.voip", "voip")`, `("com.example.app.complication", "complication")`.
    public static func apnsTopics(_ entries: [(topic: String, kind: String)]) -> CertificateExtension {
        var body: [UInt8] = []
        for entry in entries {
            body += DER.encode(tag: DER.utf8String, Array(entry.topic.utf8))
            body += DER.encode(tag: DER.sequence, DER.encode(tag: DER.utf8String, Array(entry.kind.utf8)))
        }
        return CertificateExtension(oid: APNsEnvironment.topicsOID, der: DER.encode(tag: DER.sequence, body))
    }

    /// The topic list of a universal push certificate for `bundleID`: the app, its VoIP and complication topics.
    public static func apnsTopics(bundleID: String) -> CertificateExtension {
        apnsTopics([(bundleID, "app"), (bundleID + ".voip", "voip"), (bundleID + ".complication", "complication")])
    }
}
