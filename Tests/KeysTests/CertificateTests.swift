import Foundation
import Keys
import Testing

@Suite("Certificate loading and fields", .timeLimit(.minutes(1)))
struct CertificateTests {
    @Test("a certificate made by openssl req reads back subject, CN and validity")
    func opensslCertificateFields() throws {
        let scratch = try ScratchDirectory()
        try OpenSSLTool.run([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "30",
            "-subj", "/C=US/O=Example Ltd/CN=api.example.com", "-keyout", scratch.path("key.pem"),
            "-out", scratch.path("cert.pem"),
        ])
        let certificate = try Certificate(pem: try scratch.readText("cert.pem"))
        #expect(certificate.subject == "CN=api.example.com,O=Example Ltd,C=US")
        #expect(certificate.issuer == certificate.subject)
        #expect(certificate.commonName == "api.example.com")
        #expect(certificate.notAfter - certificate.notBefore == 30 * 86_400)
        #expect(abs(certificate.notBefore - unixNow()) < 300)
        #expect(certificate.isValid(at: unixNow()))
        #expect(!certificate.isValid(at: certificate.notAfter + 1))
    }

    @Test("PEM and DER round trips give an equal certificate, and openssl reads our PEM")
    func roundTrips() throws {
        let fixture = try IssuedFixture()
        let pem = try fixture.leaf.pem()
        #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
        #expect(try Certificate(pem: pem) == fixture.leaf)
        #expect(try Certificate(der: fixture.leaf.der()) == fixture.leaf)
        #expect(fixture.leaf != fixture.authority.certificate)

        let scratch = try ScratchDirectory()
        try fixture.write(to: scratch)
        try OpenSSLTool.run([
            "x509", "-in", scratch.path("leaf.pem"), "-outform", "DER", "-out", scratch.path("leaf.der"),
        ])
        #expect(try scratch.read("leaf.der") == fixture.leaf.der())
    }

    @Test("a chain file yields every certificate in order and skips other PEM blocks")
    func chainInOrder() throws {
        let fixture = try IssuedFixture()
        let text = try fixture.leaf.pem() + fixture.leafKey.pkcs8PEM() + "\r\n" + fixture.authority.certificate.pem()
        let chain = try Certificate.chain(pem: text)
        #expect(chain == [fixture.leaf, fixture.authority.certificate])

        let scratch = try ScratchDirectory()
        let path = try scratch.write("chain.pem", text)
        #expect(try Certificate.chain(contentsOfFile: path) == chain)
        #expect(try Certificate(pem: text) == fixture.leaf)
    }

    @Test("a damaged second certificate fails the whole chain, naming which one")
    func damagedChain() throws {
        let fixture = try IssuedFixture()
        var second = try fixture.authority.certificate.pem()
        second = second.replacingOccurrences(of: "\nMII", with: "\n!!!")
        let error = keysError { () throws(KeysError) in try Certificate.chain(pem: try fixture.leaf.pem() + second) }
        guard case .malformedCertificate(let reason, _)? = error?.kind else {
            Issue.record("expected malformedCertificate, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("certificate 2 of 2"))
    }

    @Test("non-certificate input gets an error that names the file and what was there, never the contents")
    func notACertificate() throws {
        let key = try PrivateKey.generate()
        let pem = try key.pkcs8PEM()
        let scratch = try ScratchDirectory()
        let path = try scratch.write("key-only.pem", pem)
        let error = keysError { () throws(KeysError) in try Certificate.chain(contentsOfFile: path) }
        let message = error?.description ?? ""
        #expect(message.contains("no PEM certificate found in \(String(reflecting: path))"))
        #expect(message.contains("'PRIVATE KEY'"))
        #expect(message.contains("'-----BEGIN CERTIFICATE-----'"))
        for line in base64BodyLines(of: pem) {
            #expect(!message.contains(line))
        }
        #expect(
            keysError { () throws(KeysError) in try Certificate(pem: "") }?.description.contains("the input is empty")
                == true)
        guard
            case .fileUnreadable? = keysError({ () throws(KeysError) in
                try Certificate.chain(contentsOfFile: scratch.path("absent.pem"))
            })?.kind
        else {
            Issue.record("a missing file should be fileUnreadable")
            return
        }
    }

    @Test("DER with trailing bytes or garbage is rejected")
    func badDER() throws {
        let fixture = try IssuedFixture()
        let der = try fixture.leaf.der()
        #expect(
            keysError { () throws(KeysError) in try Certificate(der: der + [0]) }?.description.contains(
                "1 bytes after the DER certificate") == true)
        #expect(
            keysError { () throws(KeysError) in try Certificate(der: [0x30, 0x03, 1, 2, 3]) }?.description.contains(
                "not a DER certificate") == true)
        #expect(keysError { () throws(KeysError) in try Certificate(der: []) } != nil)
    }

    @Test("non-ASCII subjects stay UTF-8 on one line; specials are escaped")
    func subjectEscaping() throws {
        let authority = try CertificateAuthority.generate(commonName: "Zürich, \"Test\" CA")
        #expect(authority.certificate.subject == #"CN=Zürich\, \"Test\" CA"#)
        #expect(authority.certificate.commonName == "Zürich, \"Test\" CA")
        let (leaf, _) = try authority.issue(commonName: "line\nbreak")
        #expect(!leaf.subject.contains("\n"))
    }
}
