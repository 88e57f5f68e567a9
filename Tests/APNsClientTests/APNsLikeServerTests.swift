import APNs
import APNsClient
import Foundation
import HTTP2
import HeraldTestSupport
import Keys
import Synchronization
import Testing

/// Answers like APNs does with stream limits: MAX_CONCURRENT_STREAMS 1 until the first request,
/// then 1000; records the peer's certificate and the most streams seen open at once. Requests to
/// /3/device/<token> whose token starts with "00" are never answered (for request timeouts).
final class LimitRaisingHandler: HTTP2RequestHandler {
    let mostOpen = Atomic<Int>(0)
    let peerNames = Mutex<[String]>([])

    func connectionOpened(_ connection: HTTP2ServerConnectionContext) {
        if let name = connection.peerCertificate?.commonName { peerNames.withLock { $0.append(name) } }
    }

    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        let open = responder.connection.openStreams
        var seen = mostOpen.load(ordering: .relaxed)
        while open > seen {
            let (exchanged, original) = mostOpen.compareExchange(expected: seen, desired: open, ordering: .relaxed)
            if exchanged { break }
            seen = original
        }
        _ = responder.connection.setMaxConcurrentStreams(1000)
        if request.path?.hasPrefix("/3/device/00") == true { return }
        responder.connection.loop.schedule(after: 1_000_000) {
            _ = responder.respond(status: 200, headers: [HTTP2Header("apns-id", request.headers.value(for: "apns-id") ?? "")])
        }
    }
}

@Suite(.timeLimit(.minutes(1)))
struct APNsLikeServerTests {
    static func notification(_ token: String = String(repeating: "ab", count: 32)) throws -> APNs.Notification {
        APNs.Notification(token: try DeviceToken(hex: token), topic: try Topic("com.example.app"), payload: Payload.alert(body: "x"))
    }

    func start(_ handler: LimitRaisingHandler, tls: TLSContext? = nil) async throws -> (HTTP2Server, EventLoopGroup) {
        let loops = try EventLoopGroup(loopCount: 1, name: "apns-like")
        let server = try await HTTP2Server.start(
            configuration: HTTP2Server.Configuration(loops: loops, tls: tls, initialMaxConcurrentStreams: 1), handler: handler)
        return (server, loops)
    }

    @Test func streamLimitOfOneThenRaisedIsFollowed() async throws {
        let handler = LimitRaisingHandler()
        let (server, loops) = try await start(handler)
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(server.port)")
        let transport = try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint))
        let client = APNsClient(endpoint: endpoint, credentials: .certificate, transport: transport)
        let note = try Self.notification()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<200 { group.addTask { _ = try? await client.send(note) } }
        }
        #expect(client.metrics.succeeded == 200)
        #expect(transport.resentCount == 0, "nothing was sent beyond the limit of 1, so nothing was refused")
        #expect(handler.mostOpen.load(ordering: .relaxed) > 1, "after the raise, requests ran concurrently")
        await client.shutdown()
        await server.shutdown()
        await loops.shutdown()
    }

    @Test func requestTimeoutResetsTheStreamAndReportsATimeout() async throws {
        let handler = LimitRaisingHandler()
        let (server, loops) = try await start(handler)
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(server.port)")
        let client = APNsClient(
            endpoint: endpoint, credentials: .certificate,
            transport: try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint)),
            retryPolicy: .none, requestTimeout: .milliseconds(200))
        let silent = try Self.notification("00" + String(repeating: "ab", count: 31))
        do {
            _ = try await client.send(silent)
            Issue.record("the server never answers this token")
        } catch {
            guard case .timedOut = error else {
                Issue.record("expected a timeout, got \(error)")
                return
            }
        }
        // The connection is still usable afterwards.
        _ = try await client.send(try Self.notification())
        await client.shutdown()
        await server.shutdown()
        await loops.shutdown()
    }

    @Test(arguments: ["pem", "p12"])
    func clientCertificateIsPresented(_ format: String) async throws {
        let authority = try CertificateAuthority.generate(commonName: "Herald Test CA")
        let (serverCertificate, serverKey) = try authority.issue(commonName: "localhost", subjectAlternativeNames: ["localhost", "127.0.0.1"])
        let (clientCertificate, clientKey) = try authority.issue(
            commonName: "Apple Push Services: com.example.app", isClient: true, extraSubjectUID: "com.example.app")
        let serverTLS = try TLSContext(.server(
            certificateChain: [serverCertificate], privateKey: serverKey, trustRoots: .certificates([authority.certificate]),
            verifyPeer: true))
        let handler = LimitRaisingHandler()
        let (server, loops) = try await start(handler, tls: serverTLS)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-cert-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(try authority.certificate.pem().utf8).write(to: URL(fileURLWithPath: directory + "/ca.pem"))
        try Data(try clientCertificate.pem().utf8).write(to: URL(fileURLWithPath: directory + "/push.pem"))
        try Data(try clientKey.pkcs8PEM().utf8).write(to: URL(fileURLWithPath: directory + "/push.key"))
        let identity: TransportConfiguration.ClientIdentity
        if format == "pem" {
            identity = .pem(certificatePath: directory + "/push.pem", keyPath: directory + "/push.key", password: nil)
        } else {
            let status = try runOpenSSL([
                "pkcs12", "-export", "-in", directory + "/push.pem", "-inkey", directory + "/push.key",
                "-out", directory + "/push.p12", "-passout", "pass:s3cret",
            ])
            #expect(status == 0)
            identity = .pkcs12(path: directory + "/push.p12", password: "s3cret")
        }
        let endpoint = try APNsEndpoint(url: "https://localhost:\(server.port)")
        let client = APNsClient(
            endpoint: endpoint, credentials: .certificate,
            transport: try HTTP2Transport(configuration: TransportConfiguration(
                endpoint: endpoint, caFile: directory + "/ca.pem", clientIdentity: identity)))
        _ = try await client.send(try Self.notification())
        #expect(handler.peerNames.withLock { $0 } == ["Apple Push Services: com.example.app"])
        await client.shutdown()
        await server.shutdown()
        await loops.shutdown()
    }

    @Test func wrongP12PasswordIsAConfigurationErrorWithoutThePassword() throws {
        let endpoint = try APNsEndpoint(url: "https://localhost:1")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-p12-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let authority = try CertificateAuthority.generate(commonName: "CA")
        let (certificate, key) = try authority.issue(commonName: "push", isClient: true)
        try Data(try certificate.pem().utf8).write(to: URL(fileURLWithPath: directory + "/c.pem"))
        try Data(try key.pkcs8PEM().utf8).write(to: URL(fileURLWithPath: directory + "/k.pem"))
        _ = try runOpenSSL(["pkcs12", "-export", "-in", directory + "/c.pem", "-inkey", directory + "/k.pem",
                            "-out", directory + "/c.p12", "-passout", "pass:right-one"])
        do {
            _ = try HTTP2Transport(configuration: TransportConfiguration(
                endpoint: endpoint, clientIdentity: .pkcs12(path: directory + "/c.p12", password: "wrong-one")))
            Issue.record("a wrong password must be refused")
        } catch {
            #expect(error.description.contains("c.p12"))
            #expect(!error.description.contains("wrong-one") && !error.description.contains("right-one"))
        }
    }
}

/// Runs /usr/bin/openssl with its output discarded; returns the exit status.
func runOpenSSL(_ arguments: [String]) throws -> Int32 {
    let child = try ChildProcess(["/usr/bin/openssl"] + arguments)
    return child.wait()
}

/// Answers every request with 200 (used with a session that never acknowledges PINGs).
final class OKHandler: HTTP2RequestHandler {
    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        _ = responder.respond(status: 200, headers: [HTTP2Header("apns-id", request.headers.value(for: "apns-id") ?? "")])
    }
}

@Suite(.timeLimit(.minutes(1)))
struct PingTests {
    /// A connection idle past `idlePingInterval` is PINGed; with no acknowledgement within
    /// `pingTimeout` it is closed, and the next send opens a new one.
    @Test func unansweredPingClosesTheConnection() async throws {
        let loops = try EventLoopGroup(loopCount: 1, name: "no-ping-ack")
        var session = HTTP2SessionConfiguration()
        session.acknowledgesPings = false
        let server = try await HTTP2Server.start(
            configuration: HTTP2Server.Configuration(loops: loops, session: session), handler: OKHandler())
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(server.port)")
        let transport = try HTTP2Transport(configuration: TransportConfiguration(
            endpoint: endpoint, idlePingInterval: .milliseconds(50), pingTimeout: .milliseconds(50)))
        let client = APNsClient(endpoint: endpoint, credentials: .certificate, transport: transport)
        let note = try APNsLikeServerTests.notification()
        _ = try await client.send(note)
        #expect(transport.openedConnectionCount == 1)
        // Wait (bounded) for the PING timeout to close the idle connection: there is no event to
        // await from outside the loop, so poll the counter.
        var closed = false
        for _ in 0..<100 where !closed {
            try await Task.sleep(for: .milliseconds(20))
            closed = transport.connectionCount == 0
        }
        #expect(closed, "the connection whose PING went unanswered was closed")
        _ = try await client.send(note)
        #expect(transport.openedConnectionCount == 2, "the next send opened a new connection")
        await client.shutdown()
        await server.shutdown()
        await loops.shutdown()
    }

    @Test func answeredPingsKeepTheConnection() async throws {
        let loops = try EventLoopGroup(loopCount: 1, name: "ping-ack")
        let server = try await HTTP2Server.start(configuration: HTTP2Server.Configuration(loops: loops), handler: OKHandler())
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(server.port)")
        let transport = try HTTP2Transport(configuration: TransportConfiguration(
            endpoint: endpoint, idlePingInterval: .milliseconds(30), pingTimeout: .milliseconds(300)))
        let client = APNsClient(endpoint: endpoint, credentials: .certificate, transport: transport)
        _ = try await client.send(try APNsLikeServerTests.notification())
        try await Task.sleep(for: .milliseconds(800))  // several PING rounds, each answered within 300 ms
        #expect(transport.connectionCount == 1)
        #expect(transport.openedConnectionCount == 1)
        await client.shutdown()
        await server.shutdown()
        await loops.shutdown()
    }
}
