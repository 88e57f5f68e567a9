import HTTP2
import Keys
import Testing

@Suite("TLS client certificates (APNs certificate authentication)", .timeLimit(.minutes(1)))
struct TLSClientCertificateTests {
    static let bundleID = "com.example.app"

    /// A server that requires client certificates issued by `clientCA`.
    static func requiringServer(_ fixture: TLSFixture, clientCA: CertificateAuthority) -> TLSConfiguration {
        .server(
            certificateChain: [fixture.serverCertificate], privateKey: fixture.serverKey,
            trustRoots: .certificates([clientCA.certificate]), verifyPeer: true)
    }

    @Test("a required client certificate is presented and the server reads its APNs fields")
    func presented() throws {
        let fixture = try TLSFixture()
        let clientCA = try CertificateAuthority.generate(commonName: "Fake Apple WWDR")
        let (certificate, key) = try clientCA.issue(
            commonName: "Apple Push Services: \(Self.bundleID)", isClient: true, extraSubjectUID: Self.bundleID,
            extensions: [.apns(.development)])
        var client = fixture.clientConfiguration()
        client.certificateChain = [certificate]
        client.privateKey = key
        let pair = try TLSPair(client: client, server: Self.requiringServer(fixture, clientCA: clientCA))
        pair.pump()
        #expect(pair.client.error == nil && pair.server.error == nil)
        let seen = try #require(pair.server.session.peerCertificate)
        #expect(seen.subject == "CN=Apple Push Services: \(Self.bundleID),UID=\(Self.bundleID)")
        #expect(seen.apnsTopics == [Self.bundleID])
        #expect(seen.apnsEnvironments == [.development])
    }

    @Test("a missing client certificate fails the server's handshake, and the client hears of it")
    func missing() throws {
        let fixture = try TLSFixture()
        let clientCA = try CertificateAuthority.generate(commonName: "Client CA")
        let pair = try TLSPair(
            client: fixture.clientConfiguration(), server: Self.requiringServer(fixture, clientCA: clientCA))
        pair.pump()
        guard case .handshakeFailed(let reason)? = pair.server.error else {
            Issue.record("server: \(String(describing: pair.server.error))")
            return
        }
        #expect(reason.contains("peer did not return a certificate"))
        #expect(pair.client.error?.description.contains("certificate required") == true)
        #expect(pair.server.session.peerCertificate == nil)
    }

    @Test("a client certificate from an untrusted CA fails verification on the server")
    func untrusted() throws {
        let fixture = try TLSFixture()
        let clientCA = try CertificateAuthority.generate(commonName: "Client CA")
        let rogue = try CertificateAuthority.generate(commonName: "Rogue CA")
        let (certificate, key) = try rogue.issue(commonName: "push", isClient: true)
        let client = TLSConfiguration.client(
            serverHostname: "localhost", trustRoots: .certificates([fixture.authority.certificate]),
            certificateChain: [certificate], privateKey: key)
        let pair = try TLSPair(client: client, server: Self.requiringServer(fixture, clientCA: clientCA))
        pair.pump()
        #expect(pair.server.error == .certificateVerificationFailed(reason: "unable to get local issuer certificate"))
        #expect(pair.client.error != nil)
    }

    @Test("a PKCS#12 bundle from openssl pkcs12 -export is a working client identity")
    func pkcs12Identity() throws {
        let fixture = try TLSFixture()
        let clientCA = try CertificateAuthority.generate(commonName: "Client CA")
        let (certificate, key) = try clientCA.issue(commonName: "p12 client", isClient: true)
        let scratch = try TLSScratchDirectory()
        try scratch.write("cert.pem", try certificate.pem())
        try scratch.write("key.pem", try key.pkcs8PEM())
        let password = "bundle-pass-42"
        try OpenSSLCommand.run([
            "pkcs12", "-export", "-in", scratch.path("cert.pem"), "-inkey", scratch.path("key.pem"),
            "-passout", "pass:\(password)", "-out", scratch.path("client.p12"),
        ])
        let bundle = try PKCS12Bundle(contentsOfFile: scratch.path("client.p12"), password: password)
        let pair = try TLSPair(
            client: fixture.clientConfiguration().withIdentity(bundle),
            server: Self.requiringServer(fixture, clientCA: clientCA))
        pair.pump()
        #expect(pair.client.error == nil && pair.server.error == nil)
        #expect(pair.server.session.peerCertificate?.commonName == "p12 client")

        do {
            _ = try PKCS12Bundle(contentsOfFile: scratch.path("client.p12"), password: "not-the-password")
            Issue.record("a wrong password should fail")
        } catch {
            #expect(error.description.contains(scratch.path("client.p12")))
            #expect(error.description.contains("wrong password"))
            #expect(!error.description.contains("not-the-password") && !error.description.contains(password))
        }
    }

    @Test("an RSA 2048 certificate and PEM key from openssl req work as the client identity")
    func rsaPEMIdentity() throws {
        let fixture = try TLSFixture()
        let scratch = try TLSScratchDirectory()
        try OpenSSLCommand.run([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "30",
            "-subj", "/UID=\(Self.bundleID)/CN=Apple Push Services: \(Self.bundleID)/C=US",
            "-addext", "basicConstraints=critical,CA:FALSE", "-addext", "extendedKeyUsage=clientAuth",
            "-addext", "1.2.840.113635.100.6.3.2=ASN1:NULL",
            "-keyout", scratch.path("key.pem"), "-out", scratch.path("cert.pem"),
        ])
        let certificate = try Certificate(pem: try scratch.readText("cert.pem"))
        let key = try PrivateKey(contentsOfFile: scratch.path("key.pem"))
        #expect(key.typeName == "RSA" && key.bits == 2048)
        let server = TLSConfiguration.server(
            certificateChain: [fixture.serverCertificate], privateKey: fixture.serverKey,
            trustRoots: .file(scratch.path("cert.pem")), verifyPeer: true)
        let client = TLSConfiguration.client(
            serverHostname: "localhost", trustRoots: .certificates([fixture.authority.certificate]),
            certificateChain: [certificate], privateKey: key)
        let pair = try TLSPair(client: client, server: server)
        pair.pump()
        #expect(pair.client.error == nil && pair.server.error == nil)
        #expect(pair.server.session.peerCertificate?.apnsEnvironments == [.production])
        #expect(pair.server.session.peerCertificate?.apnsTopics == [Self.bundleID])
    }

    @Test("an RSA server identity from openssl req, trusted directly, serves h2")
    func rsaServer() throws {
        let scratch = try TLSScratchDirectory()
        try OpenSSLCommand.run([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "30", "-subj", "/CN=push.local",
            "-addext", "subjectAltName=DNS:push.local", "-keyout", scratch.path("key.pem"),
            "-out", scratch.path("cert.pem"),
        ])
        let server = TLSConfiguration.server(
            certificateChain: try Certificate.chain(contentsOfFile: scratch.path("cert.pem")),
            privateKey: try PrivateKey(contentsOfFile: scratch.path("key.pem")))
        let pair = try TLSPair(
            client: .client(serverHostname: "push.local", trustRoots: .file(scratch.path("cert.pem"))), server: server)
        pair.pump()
        #expect(pair.client.error == nil && pair.client.session.negotiatedALPN == "h2")
    }
}
