import Foundation
import HTTP2
import HeraldTestSupport
import Keys
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ClientConnectionTests {
    @Test func h2cAgainstNghttpd() async throws {
        let server = try Nghttpd()
        let loop = try EventLoop(name: "client")
        let result = await sendOne(
            on: loop, .init(host: "127.0.0.1", port: server.port, tls: nil), path: "/3/device/\(Nghttpd.token)")
        await loop.shutdown()
        let response = try result.get()
        #expect(response.status == 200)
    }

    @Test func tlsWithACustomCAAgainstNghttpd() async throws {
        let pki = try TestPKI()
        let server = try Nghttpd(tls: (try pki.serverCertificate.pem(), try pki.serverKey.pkcs8PEM()))
        let loop = try EventLoop(name: "client")
        let configuration = HTTP2ClientConnection.Configuration(
            host: "127.0.0.1", port: server.port, tls: try pki.clientContext(serverName: "localhost"), serverName: "localhost")
        let result = await sendOne(on: loop, configuration, path: "/3/device/\(Nghttpd.token)")
        await loop.shutdown()
        #expect(try result.get().status == 200)
    }

    @Test func hostnameMismatchIsRefused() async throws {
        let pki = try TestPKI(commonName: "other.example")
        let server = try Nghttpd(tls: (try pki.serverCertificate.pem(), try pki.serverKey.pkcs8PEM()))
        let loop = try EventLoop(name: "client")
        let configuration = HTTP2ClientConnection.Configuration(
            host: "127.0.0.1", port: server.port, tls: try pki.clientContext(serverName: "localhost"), serverName: "localhost")
        let result = await sendOne(on: loop, configuration, path: "/")
        await loop.shutdown()
        guard case .failure(let failure) = result, case .connection(.tls(let error)) = failure.kind else {
            Issue.record("expected a TLS failure, got \(result)")
            return
        }
        #expect(error.description.contains("localhost"))
        #expect(!failure.mayHaveBeenProcessed)
    }

    @Test func connectionRefused() async throws {
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let port = refusing.port
        let loop = try EventLoop(name: "client")
        let result = await sendOne(on: loop, .init(host: "127.0.0.1", port: port, tls: nil), path: "/")
        await loop.shutdown()
        guard case .failure(let failure) = result, case .connection(.system(let error)) = failure.kind else {
            Issue.record("expected connection refused, got \(result)")
            return
        }
        #expect(error.description.contains("refused"))
    }
}
