import APNs
import APNsClient
import Foundation
import HTTP2
import HeraldTestSupport
import Keys
import Testing

/// The HTTP/2 transport and the client over it, against nghttpd on loopback.
@Suite(.timeLimit(.minutes(1)))
struct TransportTests {
    static let token = String(repeating: "ab", count: 32)

    func notification(_ token: String = TransportTests.token) throws -> APNs.Notification {
        APNs.Notification(
            token: try DeviceToken(hex: token), topic: try Topic("com.example.app"),
            payload: Payload.alert(title: "Hi", body: "There"))
    }

    @Test func thousandSendsOverTwoConnections() async throws {
        let server = try Nghttpd()
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(server.port)")
        let transport = try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint, maximumConnections: 2))
        let client = APNsClient(endpoint: endpoint, credentials: .certificate, transport: transport)
        let note = try notification()
        let failures = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<1000 { group.addTask { (try? await client.send(note)) == nil } }
            var failed = 0
            for await failure in group where failure { failed += 1 }
            return failed
        }
        #expect(failures == 0)
        #expect((1...2).contains(transport.connectionCount))
        let metrics = client.metrics
        #expect(metrics.succeeded == 1000 && metrics.failed == 0 && metrics.inFlight == 0)
        await client.shutdown()
        #expect(transport.connectionCount == 0)
    }

    @Test func maxConcurrentStreamsOfOneIsRespected() async throws {
        let server = try Nghttpd(extraArguments: ["--max-concurrent-streams=1"])
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(server.port)")
        let transport = try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint))
        let client = APNsClient(endpoint: endpoint, credentials: .certificate, transport: transport)
        let note = try notification()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<50 { group.addTask { _ = try? await client.send(note) } }
        }
        #expect(client.metrics.succeeded == 50)
        #expect(transport.resentCount == 0, "requests beyond the server's limit waited instead of being refused")
        await client.shutdown()
    }

    @Test func errorStatusesBecomeRejections() async throws {
        let server = try Nghttpd()
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(server.port)")
        let client = APNsClient(
            endpoint: endpoint, credentials: .certificate,
            transport: try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint)))
        let missing = try notification("abcd")  // no such file: nghttpd answers 404
        do {
            _ = try await client.send(missing)
            Issue.record("expected a rejection")
        } catch {
            guard case .rejected(let rejection) = error else {
                Issue.record("expected a rejection, got \(error)")
                return
            }
            #expect(rejection.status == 404)
        }
        await client.shutdown()
    }

    @Test func tlsWithACustomCA() async throws {
        let authority = try CertificateAuthority.generate(commonName: "Herald Test CA")
        let (certificate, key) = try authority.issue(commonName: "localhost", subjectAlternativeNames: ["localhost", "127.0.0.1"])
        let server = try Nghttpd(tls: (try certificate.pem(), try key.pkcs8PEM()))
        let caFile = server.directory + "/ca.pem"
        try Data(try authority.certificate.pem().utf8).write(to: URL(fileURLWithPath: caFile))
        let endpoint = try APNsEndpoint(url: "https://localhost:\(server.port)")
        let client = APNsClient(
            endpoint: endpoint, credentials: .certificate,
            transport: try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint, caFile: caFile)))
        let response = try await client.send(try notification())
        #expect(!response.apnsID.isEmpty)
        await client.shutdown()
    }

    @Test func untrustedServerIsAnErrorNamingTheProblem() async throws {
        let authority = try CertificateAuthority.generate(commonName: "Some Other CA")
        let (certificate, key) = try authority.issue(commonName: "localhost", subjectAlternativeNames: ["localhost"])
        let server = try Nghttpd(tls: (try certificate.pem(), try key.pkcs8PEM()))
        let endpoint = try APNsEndpoint(url: "https://localhost:\(server.port)")
        let client = APNsClient(
            endpoint: endpoint, credentials: .certificate,
            transport: try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint)), retryPolicy: .none)
        let note = try notification()
        do {
            _ = try await client.send(note)
            Issue.record("a server with an untrusted certificate must be refused")
        } catch {
            guard case .transport(let failure) = error else {
                Issue.record("expected a transport failure, got \(error)")
                return
            }
            #expect(!failure.mayHaveReachedAPNs)
            #expect(failure.message.contains("certificate"), "\(failure.message)")
        }
        await client.shutdown()
    }

    @Test func unreachableServerIsRefusedAndNotDelivered() async throws {
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let port = refusing.port
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(port)")
        let client = APNsClient(
            endpoint: endpoint, credentials: .certificate,
            transport: try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint)), retryPolicy: .none)
        let note = try notification()
        do {
            _ = try await client.send(note)
            Issue.record("nothing listens there")
        } catch {
            guard case .transport(let failure) = error else {
                Issue.record("expected a transport failure, got \(error)")
                return
            }
            #expect(!failure.mayHaveReachedAPNs)
            #expect(failure.message.contains("refused"))
        }
        await client.shutdown()
    }

    @Test func aServerThatNeverAnswersTimesOutTheConnect() async throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)  // accepts (backlog), never speaks
        defer { listener.close() }
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(try listener.localAddress.port)")
        let client = APNsClient(
            endpoint: endpoint, credentials: .certificate,
            transport: try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint, connectTimeout: .milliseconds(300))),
            retryPolicy: .none)
        let note = try notification()
        do {
            _ = try await client.send(note)
            Issue.record("the server never sends SETTINGS")
        } catch {
            #expect("\(error)".contains("timed out"), "\(error)")
        }
        await client.shutdown()
    }
}

@Suite(.timeLimit(.minutes(1)))
struct ProxyTransportTests {
    @Test func sendsThroughAConnectProxy() async throws {
        let server = try Nghttpd()
        let proxy = try ConnectProxy()
        defer { proxy.stop() }
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(server.port)")
        let client = APNsClient(
            endpoint: endpoint, credentials: .certificate,
            transport: try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint, proxy: "http://127.0.0.1:\(proxy.port)")), retryPolicy: .none)
        let note = APNs.Notification(
            token: try DeviceToken(hex: TransportTests.token), topic: try Topic("com.example.app"), payload: Payload.alert(body: "via proxy"))
        _ = try await client.send(note)
        #expect(proxy.requests == ["CONNECT 127.0.0.1:\(server.port) HTTP/1.1"])
        await client.shutdown()
    }

    @Test func proxyRefusalIsATransportErrorWithItsStatus() async throws {
        let server = try Nghttpd()
        let proxy = try ConnectProxy(requireAuthorization: true)
        defer { proxy.stop() }
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(server.port)")
        let client = APNsClient(
            endpoint: endpoint, credentials: .certificate,
            transport: try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint, proxy: "http://127.0.0.1:\(proxy.port)")),
            retryPolicy: .none)
        let note = APNs.Notification(
            token: try DeviceToken(hex: TransportTests.token), topic: try Topic("com.example.app"), payload: Payload.alert(body: "x"))
        do {
            _ = try await client.send(note)
            Issue.record("the proxy demands credentials")
        } catch {
            #expect("\(error)".contains("407"), "\(error)")
        }
        await client.shutdown()
    }
}
