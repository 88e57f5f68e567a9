import Foundation
import Testing

@testable import Keys

@Suite("Certificate APNs environments and topics", .timeLimit(.minutes(1)))
struct CertificateAPNsTests {
    static let bundleID = "com.example.app"
    static let subject = "/UID=\(bundleID)/CN=Apple Push Services: \(bundleID)/OU=ABCDE12345/O=Example Ltd/C=US"

    /// A self-signed push-like certificate made by `openssl req` with `extraArguments`.
    static func opensslPushCertificate(_ extraArguments: [String], in scratch: ScratchDirectory) throws -> Certificate {
        try OpenSSLTool.run(
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "365", "-subj", subject,
                "-keyout", scratch.path("key.pem"), "-out", scratch.path("cert.pem"),
            ] + extraArguments)
        return try Certificate(pem: try scratch.readText("cert.pem"))
    }

    @Test(
        "openssl's environment marker is read",
        arguments: [
            ("1.2.840.113635.100.6.3.1", Set([APNsEnvironment.development])),
            ("1.2.840.113635.100.6.3.2", Set([APNsEnvironment.production])),
        ])
    func environmentFromOpenSSL(oid: String, expected: Set<APNsEnvironment>) throws {
        let scratch = try ScratchDirectory()
        let certificate = try Self.opensslPushCertificate(["-addext", "\(oid)=ASN1:NULL"], in: scratch)
        #expect(certificate.apnsEnvironments == expected)
        #expect(certificate.apnsTopics == [Self.bundleID])
        #expect(certificate.commonName == "Apple Push Services: \(Self.bundleID)")
        #expect(certificate.subjectUIDs == [Self.bundleID])
        #expect(
            certificate.subject
                == "C=US,O=Example Ltd,OU=ABCDE12345,CN=Apple Push Services: \(Self.bundleID),UID=\(Self.bundleID)")
        #expect(certificate.extensionValue(oid: oid) == [0x05, 0x00])
    }

    @Test("a certificate without Apple's extensions has no environment, and no topics without a UID")
    func plainCertificate() throws {
        let fixture = try IssuedFixture()
        #expect(fixture.leaf.apnsEnvironments.isEmpty)
        #expect(fixture.leaf.apnsTopics.isEmpty)
        #expect(fixture.leaf.extensionValue(oid: APNsEnvironment.topicsOID) == nil)
        #expect(fixture.leaf.extensionValue(oid: "not an oid") == nil)
    }

    @Test("a topic list encoded by openssl's ASN1 generator reads back, and our encoder writes the same bytes")
    func topicListInterop() throws {
        let scratch = try ScratchDirectory()
        let config = """
            [ req ]
            distinguished_name = dn
            x509_extensions = ext
            [ dn ]
            [ ext ]
            1.2.840.113635.100.6.3.1 = ASN1:NULL
            1.2.840.113635.100.6.3.2 = ASN1:NULL
            1.2.840.113635.100.6.3.6 = ASN1:SEQUENCE:apns_topics
            [ apns_topics ]
            t.0 = UTF8String:\(Self.bundleID)
            t.1 = SEQWRAP,UTF8String:app
            t.2 = UTF8String:\(Self.bundleID).voip
            t.3 = SEQWRAP,UTF8String:voip
            t.4 = UTF8String:\(Self.bundleID).complication
            t.5 = SEQWRAP,UTF8String:complication
            """
        let configPath = try scratch.write("push.cnf", config)
        let certificate = try Self.opensslPushCertificate(["-config", configPath], in: scratch)
        #expect(certificate.apnsEnvironments == [.development, .production])
        #expect(certificate.apnsTopics == [Self.bundleID, "\(Self.bundleID).voip", "\(Self.bundleID).complication"])
        #expect(
            certificate.extensionValue(oid: APNsEnvironment.topicsOID)
                == CertificateExtension.apnsTopics(bundleID: Self.bundleID).der)
    }

    @Test("the generator makes push-like client certificates that openssl reads the same way")
    func generatedPushCertificate() throws {
        let authority = try CertificateAuthority.generate(commonName: "Fake Apple WWDR")
        let (leaf, _) = try authority.issue(
            commonName: "Apple Push Services: \(Self.bundleID)", isClient: true, extraSubjectUID: Self.bundleID,
            extensions: [.apns(.production), .apnsTopics([("\(Self.bundleID).voip", "voip")])])
        #expect(leaf.apnsEnvironments == [.production])
        #expect(leaf.apnsTopics == [Self.bundleID, "\(Self.bundleID).voip"])
        #expect(leaf.subject == "CN=Apple Push Services: \(Self.bundleID),UID=\(Self.bundleID)")

        let scratch = try ScratchDirectory()
        try scratch.write("leaf.pem", try leaf.pem())
        let text = try OpenSSLOutput.run(["x509", "-in", scratch.path("leaf.pem"), "-noout", "-text"])
        #expect(text.contains("1.2.840.113635.100.6.3.2:"))
        #expect(text.contains("1.2.840.113635.100.6.3.6:"))
        #expect(text.contains("TLS Web Client Authentication"))
    }

    @Test(
        "undecodable topic lists give no topics, and never trap",
        arguments: [
            [0x30, 0x05, 0x0C, 0x03, 0x61],  // truncated
            [0x04, 0x02, 0x61, 0x62],  // an OCTET STRING, not a SEQUENCE
            [0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF],  // a length beyond the input
            [0x30, 0x03, 0x0C, 0x01, 0x61, 0x00],  // trailing bytes after the list
            [0x30, 0x04, 0x1F, 0x81, 0x01, 0x00],  // a multi-byte tag
            [0x30, 0x00],  // an empty list
            [],
        ] as [[UInt8]])
    func malformedTopicList(der: [UInt8]) {
        #expect(Certificate.topics(inTopicList: der).isEmpty)
    }

    @Test("strings beside nested sequences are topics; other element types are skipped")
    func topicListShapes() {
        let list: [UInt8] = [
            0x30, 0x0B,
            0x16, 0x01, 0x61,  // IA5String "a"
            0x30, 0x03, 0x0C, 0x01, 0x62,  // SEQUENCE { "b" }: a kind, skipped
            0x02, 0x01, 0x07,  // INTEGER, skipped
        ]
        #expect(Certificate.topics(inTopicList: list) == ["a"])
        let long = String(repeating: "x", count: 300)
        #expect(Certificate.topics(inTopicList: CertificateExtension.apnsTopics([(long, "app")]).der) == [long])
    }
}
