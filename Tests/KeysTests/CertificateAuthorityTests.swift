import Foundation
import Keys
import Testing

@Suite("CertificateAuthority generation", .timeLimit(.minutes(1)))
struct CertificateAuthorityTests {
    @Test("openssl verifies a leaf against the generated root, and sees its SANs and constraints")
    func opensslVerifies() throws {
        let fixture = try IssuedFixture()
        let scratch = try ScratchDirectory()
        try fixture.write(to: scratch)
        let verified = try OpenSSLOutput.run([
            "verify", "-CAfile", scratch.path("ca.pem"), "-purpose", "sslserver", "-verify_hostname", "localhost",
            "-verify_ip", "::1", scratch.path("leaf.pem"),
        ])
        #expect(verified.contains(": OK"))

        let root = try OpenSSLOutput.run(["x509", "-in", scratch.path("ca.pem"), "-noout", "-text"])
        #expect(root.contains("CA:TRUE"))
        #expect(root.contains("Certificate Sign, CRL Sign"))
        #expect(root.contains("ASN1 OID: prime256v1"))
        let leaf = try OpenSSLOutput.run(["x509", "-in", scratch.path("leaf.pem"), "-noout", "-text"])
        #expect(leaf.contains("DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1"))
        #expect(leaf.contains("CA:FALSE"))
        #expect(leaf.contains("TLS Web Server Authentication"))
        #expect(leaf.contains("Signature Algorithm: ecdsa-with-SHA256"))
        #expect(fixture.leaf.issuer == fixture.authority.certificate.subject)
        #expect(fixture.leafKey.matches(fixture.leaf))
        #expect(!fixture.authority.privateKey.matches(fixture.leaf))
    }

    @Test("the default validity is 825 days from about now; an explicit one is kept exactly")
    func validity() throws {
        let authority = try CertificateAuthority.generate(commonName: "CA")
        let (leaf, _) = try authority.issue(commonName: "a")
        #expect(leaf.notAfter - leaf.notBefore == 825 * 86_400)
        #expect(abs(leaf.notBefore - unixNow()) < 300)
        let past = CertificateValidity(notBefore: 1_600_000_000, notAfter: 1_600_086_400)
        let (expired, _) = try authority.issue(commonName: "b", validity: past)
        #expect(expired.notBefore == past.notBefore && expired.notAfter == past.notAfter)
        #expect(!expired.isValid(at: unixNow()))
    }

    @Test("serial numbers are random and distinct")
    func serials() throws {
        let authority = try CertificateAuthority.generate(commonName: "CA")
        let scratch = try ScratchDirectory()
        var serials: Set<String> = []
        for index in 0..<3 {
            try scratch.write("\(index).pem", try authority.issue(commonName: "leaf").certificate.pem())
            serials.insert(try OpenSSLOutput.run(["x509", "-in", scratch.path("\(index).pem"), "-noout", "-serial"]))
        }
        #expect(serials.count == 3)
    }

    @Test("a given key is used, RSA leaves get keyEncipherment, and a CA with a foreign key is refused")
    func givenKeys() throws {
        let authority = try CertificateAuthority.generate(commonName: "CA")
        let rsa = try PrivateKey.generate(.rsa(bits: 2048))
        let (leaf, key) = try authority.issue(commonName: "rsa", key: rsa)
        #expect(key === rsa && rsa.matches(leaf))
        #expect(rsa.typeName == "RSA" && rsa.bits == 2048)
        let scratch = try ScratchDirectory()
        try scratch.write("leaf.pem", try leaf.pem())
        #expect(
            try OpenSSLOutput.run(["x509", "-in", scratch.path("leaf.pem"), "-noout", "-ext", "keyUsage"])
                .contains("Digital Signature, Key Encipherment"))
        let error = keysError { () throws(KeysError) in
            try CertificateAuthority(certificate: authority.certificate, privateKey: rsa)
        }
        #expect(error?.description.contains("does not belong to the CA certificate") == true)
    }

    static let badRequests: [(String, @Sendable (CertificateAuthority) throws(KeysError) -> Void, String)] = [
        (
            "bad IP",
            { ca throws(KeysError) in _ = try ca.issue(commonName: "a", subjectAlternativeNames: ["IP:300.1.1.1"]) },
            "300.1.1.1"
        ),
        (
            "empty SAN",
            { ca throws(KeysError) in _ = try ca.issue(commonName: "a", subjectAlternativeNames: ["DNS:"]) }, "is empty"
        ),
        (
            "long CN", { ca throws(KeysError) in _ = try ca.issue(commonName: String(repeating: "c", count: 65)) },
            "subject CN="
        ),
        (
            "bad OID",
            { ca throws(KeysError) in _ = try ca.issue(commonName: "a", extensions: [.init(oid: "apns", der: [5, 0])])
            },
            "not a dotted OID"
        ),
        (
            "bad DER",
            { ca throws(KeysError) in _ = try ca.issue(commonName: "a", extensions: [.init(oid: "1.2.3", der: [5, 1])])
            },
            "not one DER element"
        ),
        (
            "backwards validity",
            { ca throws(KeysError) in _ = try ca.issue(commonName: "a", validity: .init(notBefore: 10, notAfter: 5)) },
            "is not after notBefore"
        ),
    ]

    @Test("malformed requests are typed errors naming the problem", arguments: badRequests.indices)
    func badRequest(index: Int) throws {
        let (name, request, fragment) = Self.badRequests[index]
        let authority = try CertificateAuthority.generate(commonName: "CA")
        let error = keysError { () throws(KeysError) in try request(authority) }
        guard case .invalidCertificateRequest(let reason)? = error?.kind else {
            Issue.record("\(name): expected invalidCertificateRequest, got \(String(describing: error))")
            return
        }
        #expect(reason.contains(fragment), "\(name): \(reason)")
        #expect(error?.description.hasPrefix("cannot generate the certificate: ") == true)
    }
}
