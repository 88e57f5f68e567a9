import COpenSSL

/// The APNs environment a push certificate is valid for, marked by one of Apple's certificate extensions.
public enum APNsEnvironment: String, Sendable, Hashable, CaseIterable {
    /// Sandbox (`api.sandbox.push.apple.com`): OID 1.2.840.113635.100.6.3.1.
    case development
    /// Production (`api.push.apple.com`): OID 1.2.840.113635.100.6.3.2.
    case production

    /// The extension OID that marks this environment.
    public var oid: String {
        switch self {
        case .development: "1.2.840.113635.100.6.3.1"
        case .production: "1.2.840.113635.100.6.3.2"
        }
    }

    /// Apple's topic-list extension.
    public static let topicsOID = "1.2.840.113635.100.6.3.6"
}

extension Certificate {
    /// The APNs environments this certificate is marked for; a universal certificate has both, others none.
    public var apnsEnvironments: Set<APNsEnvironment> {
        Set(APNsEnvironment.allCases.filter { extensionValue(oid: $0.oid) != nil })
    }

    /// The APNs topics this certificate may push to: the subject UIDs, then the topic-list extension's topics.
    ///
    /// The topic list (OID 1.2.840.113635.100.6.3.6) is assumed to be what Apple issues and other providers
    /// (Pushy) read: `SEQUENCE { UTF8String topic, SEQUENCE { UTF8String kind }, ... }`, each topic followed
    /// by its kind (`app`, `voip`, `complication`). Every string directly inside the outer SEQUENCE is taken
    /// as a topic and nested SEQUENCEs are skipped; an undecodable list contributes nothing. Duplicates are
    /// dropped, first occurrence kept.
    public var apnsTopics: [String] {
        var topics = subjectUIDs
        if let value = extensionValue(oid: APNsEnvironment.topicsOID) {
            topics += Self.topics(inTopicList: value)
        }
        var seen: Set<String> = []
        return topics.filter { seen.insert($0).inserted }
    }

    /// The DER value of the extension with `oid` (the contents of its extnValue OCTET STRING), or nil if absent.
    public func extensionValue(oid: String) -> [UInt8]? {
        OpenSSLError.clear()
        guard let object = OBJ_txt2obj(oid, 1) else {
            OpenSSLError.clear()
            return nil
        }
        defer { ASN1_OBJECT_free(object) }
        let index = X509_get_ext_by_OBJ(x509, object, -1)
        guard index >= 0, let found = X509_get_ext(x509, index), let data = X509_EXTENSION_get_data(found) else {
            return nil
        }
        let length = Int(ASN1_STRING_length(data))
        guard length > 0, let bytes = ASN1_STRING_get0_data(data) else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }

    static func topics(inTopicList der: [UInt8]) -> [String] {
        guard let outer = DER.elements(der[...]), outer.count == 1, outer[0].tag == DER.sequence,
            let items = DER.elements(outer[0].value)
        else { return [] }
        let stringTags: Set<UInt8> = [DER.utf8String, DER.printableString, DER.ia5String]
        return items.filter { stringTags.contains($0.tag) }.map { String(decoding: $0.value, as: UTF8.self) }
    }
}
