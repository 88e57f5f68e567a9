import HTTP2
import Keys
import Testing

@Suite("TLS handshake and application data over memory BIOs", .timeLimit(.minutes(1)))
struct TLSHandshakeTests {
    @Test("client and server agree on h2 and the client sees the server's certificate")
    func handshake() throws {
        let fixture = try TLSFixture()
        let pair = try TLSPair(client: fixture.clientConfiguration(), server: fixture.serverConfiguration)
        #expect(!pair.client.session.isHandshakeComplete)
        #expect(pair.client.session.hasPendingCiphertext)  // the ClientHello
        pair.pump()
        #expect(pair.client.error == nil && pair.server.error == nil)
        #expect(pair.client.session.isHandshakeComplete && pair.server.session.isHandshakeComplete)
        #expect(pair.client.session.negotiatedALPN == "h2")
        #expect(pair.server.session.negotiatedALPN == "h2")
        #expect(pair.client.session.peerCertificate == fixture.serverCertificate)
        #expect(pair.server.session.peerCertificate == nil)
        #expect(!pair.client.session.hasPendingCiphertext && !pair.server.session.hasPendingCiphertext)
    }

    @Test(
        "the server name may be an IP literal, checked against IP SANs",
        arguments: ["127.0.0.1", "::1", "localhost"])
    func ipLiterals(name: String) throws {
        let fixture = try TLSFixture()
        let pair = try TLSPair(
            client: fixture.clientConfiguration(serverHostname: nil), server: fixture.serverConfiguration,
            serverName: name)
        pair.pump()
        #expect(pair.client.error == nil, "\(name): \(String(describing: pair.client.error))")
        #expect(pair.client.session.isHandshakeComplete)
    }

    @Test("application data crosses both ways, including 1 MB in one write")
    func applicationData() throws {
        let fixture = try TLSFixture()
        let pair = try TLSPair(client: fixture.clientConfiguration(), server: fixture.serverConfiguration)
        pair.pump()
        let request = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
        try pair.client.session.write(request)
        pair.pump()
        #expect(pair.server.received == request)

        let big = patternBytes(1 << 20)
        try pair.server.session.write(big)
        try pair.client.session.write(big)
        pair.pump()
        #expect(pair.client.received == big)
        #expect(pair.server.received == request + big)
        #expect(pair.bytesToClient > big.count)  // it was encrypted, not passed through
        #expect(pair.client.error == nil && pair.server.error == nil)
    }

    @Test("plaintext written before the handshake completes is delivered after it, in order")
    func earlyData() throws {
        let fixture = try TLSFixture()
        let clientSession = try TLSSession(context: TLSContext(fixture.clientConfiguration()))
        let serverSession = try TLSSession(context: TLSContext(fixture.serverConfiguration))
        try clientSession.write(Array("first ".utf8))
        try clientSession.startHandshake()
        try clientSession.write(Array("second".utf8))
        try serverSession.write(Array("from the server".utf8))
        let pair = TLSPair(client: clientSession, server: serverSession)
        pair.pump()
        #expect(String(decoding: pair.server.received, as: UTF8.self) == "first second")
        #expect(String(decoding: pair.client.received, as: UTF8.self) == "from the server")
    }

    @Test("close sends close_notify: the peer reads .closed, and later writes throw .closed")
    func closeNotify() throws {
        let fixture = try TLSFixture()
        let pair = try TLSPair(client: fixture.clientConfiguration(), server: fixture.serverConfiguration)
        pair.pump()
        try pair.client.session.write(Array("bye".utf8))
        pair.client.session.close()
        #expect(pair.client.session.hasPendingCiphertext)
        pair.pump()
        #expect(pair.server.received == Array("bye".utf8))
        #expect(pair.server.sawClose)
        #expect(throws: TLSError.closed) { try pair.client.session.write([1]) }
        var ignored: [UInt8] = []
        #expect(try pair.server.session.readPlaintext(into: &ignored) == .closed)
        pair.server.session.close()
        pair.pump()
        #expect(pair.client.sawClose)
    }

    @Test("closing before the handshake completes abandons it and drops buffered plaintext")
    func closeBeforeHandshake() throws {
        let fixture = try TLSFixture()
        let client = try TLSSession(context: TLSContext(fixture.clientConfiguration()))
        try client.write(Array("never sent".utf8))
        client.close()
        var plaintext: [UInt8] = []
        #expect(throws: TLSError.closed) { try client.readPlaintext(into: &plaintext) }
        #expect(throws: TLSError.closed) { try client.startHandshake() }
        #expect(throws: TLSError.closed) { try client.write([1]) }
        #expect(!client.hasPendingCiphertext)
    }

    @Test("a server without a shared ALPN protocol refuses the handshake")
    func alpnNoOverlap() throws {
        let fixture = try TLSFixture()
        var server = fixture.serverConfiguration
        server.alpnProtocols = ["http/1.1"]
        let pair = try TLSPair(client: fixture.clientConfiguration(), server: server)
        pair.pump()
        guard case .handshakeFailed(let reason)? = pair.client.error else {
            Issue.record("client: \(String(describing: pair.client.error))")
            return
        }
        #expect(reason.contains("no application protocol"))
        #expect(pair.server.error != nil)
    }

    @Test("a client that offers no ALPN is refused by an h2 server, naming what was negotiated")
    func alpnMissing() throws {
        let fixture = try TLSFixture()
        var client = fixture.clientConfiguration()
        client.alpnProtocols = []
        let pair = try TLSPair(client: client, server: fixture.serverConfiguration)
        pair.pump()
        #expect(pair.server.error == .alpnMismatch(got: nil, offered: ["h2"]))
        #expect(pair.server.error?.description == #"TLS peer negotiated no ALPN protocol; expected one of "h2""#)
        #expect(pair.client.session.negotiatedALPN == nil)
    }

    @Test("a client requiring TLS 1.3 completes the handshake with a server that allows 1.2 and 1.3")
    func versions() throws {
        let fixture = try TLSFixture()
        var client = fixture.clientConfiguration()
        client.minimumVersion = .tls13
        let pair = try TLSPair(client: client, server: fixture.serverConfiguration)
        pair.pump()
        #expect(pair.client.error == nil && pair.server.error == nil)
        #expect(pair.client.session.isHandshakeComplete)
    }

    @Test("garbage instead of a ClientHello fails the server's handshake, with an alert for the client")
    func garbage() throws {
        let fixture = try TLSFixture()
        let server = try TLSSession(context: TLSContext(fixture.serverConfiguration))
        let junk = Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        junk.withUnsafeBytes { server.receiveCiphertext($0) }
        var plaintext: [UInt8] = []
        #expect(throws: TLSError.self) { try server.readPlaintext(into: &plaintext) }
        #expect(throws: TLSError.self) { try server.write([1]) }  // the failure is sticky
    }
}
