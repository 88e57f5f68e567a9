import HTTP2
import Keys
import Testing

@Suite("TLS server certificate verification", .timeLimit(.minutes(1)))
struct TLSVerificationTests {
    /// Runs a handshake and returns the client's verification failure reason, recording anything else.
    static func clientVerificationFailure(
        client: TLSConfiguration, server: TLSConfiguration, serverName: String? = nil
    ) throws -> String? {
        let pair = try TLSPair(client: client, server: server, serverName: serverName)
        pair.pump()
        #expect(!pair.client.session.isHandshakeComplete)
        #expect(pair.server.error != nil, "the server should see the client's alert")
        guard case .certificateVerificationFailed(let reason)? = pair.client.error else {
            Issue.record("expected certificateVerificationFailed, got \(String(describing: pair.client.error))")
            return nil
        }
        return reason
    }

    @Test("a server certificate from a CA the client does not trust is refused")
    func wrongCA() throws {
        let fixture = try TLSFixture()
        let other = try CertificateAuthority.generate(commonName: "Some Other CA")
        let reason = try Self.clientVerificationFailure(
            client: .client(serverHostname: "localhost", trustRoots: .certificates([other.certificate])),
            server: fixture.serverConfiguration)
        #expect(reason == "unable to get local issuer certificate")
    }

    @Test(
        "a certificate for another name fails with a message naming the hostname", arguments: ["localhost", "10.1.2.3"])
    func hostnameMismatch(expected: String) throws {
        let fixture = try TLSFixture(serverNames: ["other.example"], commonName: "other.example")
        let reason = try Self.clientVerificationFailure(
            client: fixture.clientConfiguration(serverHostname: expected), server: fixture.serverConfiguration)
        let verdict = expected == "localhost" ? "hostname mismatch" : "IP address mismatch"
        #expect(reason == "\(verdict) (the certificate does not name \(String(reflecting: expected)))")
        let error = TLSError.certificateVerificationFailed(reason: reason ?? "")
        #expect(error.description.hasPrefix("TLS peer certificate verification failed: \(verdict)"))
    }

    @Test("an expired certificate is refused")
    func expired() throws {
        let fixture = try TLSFixture(validity: CertificateValidity(notBefore: 1_500_000_000, notAfter: 1_600_000_000))
        let reason = try Self.clientVerificationFailure(
            client: fixture.clientConfiguration(), server: fixture.serverConfiguration)
        #expect(reason == "certificate has expired")
    }

    @Test("a self-signed server certificate that is not a trust root is refused")
    func selfSigned() throws {
        let fixture = try TLSFixture()
        let server = TLSConfiguration.server(
            certificateChain: [fixture.authority.certificate], privateKey: fixture.authority.privateKey)
        let other = try CertificateAuthority.generate(commonName: "Other")
        let reason = try Self.clientVerificationFailure(
            client: .client(serverHostname: "Herald TLS Test CA", trustRoots: .certificates([other.certificate])),
            server: server)
        #expect(reason == "self-signed certificate")
    }

    @Test("with verifyPeer off the client accepts any certificate and needs no hostname")
    func verificationOff() throws {
        let fixture = try TLSFixture(serverNames: ["other.example"])
        let pair = try TLSPair(
            client: .client(trustRoots: .certificates([]), verifyPeer: false), server: fixture.serverConfiguration)
        pair.pump()
        #expect(pair.client.error == nil && pair.client.session.isHandshakeComplete)
    }

    @Test("a verifying client without a server name is refused before any byte is sent")
    func verifyingClientNeedsAName() throws {
        let fixture = try TLSFixture()
        let context = try TLSContext(fixture.clientConfiguration(serverHostname: nil))
        #expect(throws: TLSError.invalidConfiguration(reason: "a client that verifies the server needs its hostname")) {
            try TLSSession(context: context)
        }
    }

    @Test("trust roots from a PEM file work; a missing file is an error naming it")
    func trustFile() throws {
        let fixture = try TLSFixture()
        let scratch = try TLSScratchDirectory()
        let path = try scratch.write("ca.pem", try fixture.authority.certificate.pem())
        let pair = try TLSPair(
            client: .client(serverHostname: "localhost", trustRoots: .file(path)), server: fixture.serverConfiguration)
        pair.pump()
        #expect(pair.client.error == nil && pair.client.session.isHandshakeComplete)

        let missing = scratch.path("absent.pem")
        do {
            _ = try TLSContext(.client(serverHostname: "localhost", trustRoots: .file(missing)))
            Issue.record("a missing trust file should fail")
        } catch {
            #expect(error.description.hasPrefix("invalid TLS configuration: trust roots: cannot read key file"))
            #expect(error.description.contains(missing))
        }
    }

    @Test("the system trust store loads without error")
    func systemTrustStore() throws {
        let context = try TLSContext(.client(serverHostname: "api.push.apple.com"))
        _ = try TLSSession(context: context)
    }

    @Test("identity mistakes are configuration errors")
    func identityMistakes() throws {
        let fixture = try TLSFixture()
        let stranger = try PrivateKey.generate()
        #expect(throws: TLSError.self) {
            try TLSContext(.server(certificateChain: [fixture.serverCertificate], privateKey: stranger))
        }
        #expect(throws: TLSError.self) {
            try TLSContext(.server(certificateChain: [], privateKey: fixture.serverKey))
        }
        #expect(throws: TLSError.self) {
            try TLSContext(.client(serverHostname: "x", privateKey: fixture.serverKey))
        }
        var badALPN = fixture.serverConfiguration
        badALPN.alpnProtocols = [""]
        #expect(throws: TLSError.self) { try TLSContext(badALPN) }
        do {
            _ = try TLSContext(.server(certificateChain: [fixture.serverCertificate], privateKey: stranger))
        } catch {
            #expect(error.description.contains("the private key does not match the certificate CN=localhost"))
        }
    }
}
