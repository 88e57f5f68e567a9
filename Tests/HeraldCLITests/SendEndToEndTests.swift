import APNs
import APNsClient
import Foundation
import HTTP2
import HeraldCLI
import HeraldTestSupport
import Keys
import Synchronization
import Testing

/// Records what reached the server: authorization scheme, topic, client certificate; answers 200
/// with the apns-id, or 410 Unregistered for tokens starting with "dead".
final class RecordingHandler: HTTP2RequestHandler {
    let seen = Mutex<[(authorization: String?, topic: String?, path: String?)]>([])
    let certificates = Mutex<[String]>([])

    func connectionOpened(_ connection: HTTP2ServerConnectionContext) {
        if let name = connection.peerCertificate?.commonName { certificates.withLock { $0.append(name) } }
    }

    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        seen.withLock {
            $0.append((request.headers.value(for: "authorization"), request.headers.value(for: "apns-topic"), request.path))
        }
        let id = request.headers.value(for: "apns-id") ?? ""
        if request.path?.hasPrefix("/3/device/dead") == true {
            _ = responder.respond(
                status: 410, headers: [HTTP2Header("apns-id", id)],
                body: Array(#"{"reason":"Unregistered","timestamp":1767225600000}"#.utf8))
        } else {
            _ = responder.respond(status: 200, headers: [HTTP2Header("apns-id", id)])
        }
    }
}

/// `herald send` through the real HTTP/2 transport to a local server, as a user runs it.
@Suite(.timeLimit(.minutes(1)))
struct SendEndToEndTests {
    let directory: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-send-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = directory + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Runs herald with the real context, capturing output through files is not needed: the
    /// server's records and the exit status say what happened.
    func herald(_ arguments: [String]) async -> Int32 {
        var context = CommandContext.system
        context.standardOutput = { _ in }
        context.standardError = { _ in }
        return await runHerald(arguments, context: context)
    }

    @Test func tokenAuthOverTLS() async throws {
        let authority = try CertificateAuthority.generate(commonName: "Test CA")
        let (certificate, key) = try authority.issue(commonName: "localhost", subjectAlternativeNames: ["localhost", "127.0.0.1"])
        let loops = try EventLoopGroup(loopCount: 1, name: "send-e2e")
        let handler = RecordingHandler()
        let server = try await HTTP2Server.start(
            configuration: HTTP2Server.Configuration(
                loops: loops, tls: try TLSContext(.server(certificateChain: [certificate], privateKey: key))),
            handler: handler)
        let ca = try write("ca.pem", try authority.certificate.pem())
        let p8 = try write("AuthKey.p8", try P256PrivateKey.generate().pkcs8PEM())
        let live = String(repeating: "ab", count: 32)
        let dead = "dead" + String(repeating: "ab", count: 30)
        let status = await herald([
            "send", "--endpoint", "https://localhost:\(server.port)", "--ca-file", ca, "--auth-key", p8,
            "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ", "--topic", "com.example.app",
            "-t", live, "-t", dead, "--title", "Hi", "--body", "There",
        ])
        #expect(status == 1, "the dead token fails, so the run reports a failure")
        let seen = handler.seen.withLock { $0 }
        #expect(seen.count == 2)
        #expect(seen.allSatisfy { $0.authorization?.hasPrefix("bearer ey") == true && $0.topic == "com.example.app" })
        #expect(Set(seen.compactMap(\.path)) == ["/3/device/\(live)", "/3/device/\(dead)"])
        await server.shutdown()
        await loops.shutdown()
    }

    @Test func certificateAuthWithAP12() async throws {
        let authority = try CertificateAuthority.generate(commonName: "Test CA")
        let (serverCertificate, serverKey) = try authority.issue(commonName: "localhost", subjectAlternativeNames: ["localhost"])
        let (clientCertificate, clientKey) = try authority.issue(
            commonName: "Apple Push Services: com.example.app", isClient: true, extraSubjectUID: "com.example.app")
        let loops = try EventLoopGroup(loopCount: 1, name: "send-e2e-cert")
        let handler = RecordingHandler()
        let server = try await HTTP2Server.start(
            configuration: HTTP2Server.Configuration(
                loops: loops,
                tls: try TLSContext(.server(
                    certificateChain: [serverCertificate], privateKey: serverKey,
                    trustRoots: .certificates([authority.certificate]), verifyPeer: true))),
            handler: handler)
        let ca = try write("ca.pem", try authority.certificate.pem())
        let pem = try write("push.pem", try clientCertificate.pem())
        let keyFile = try write("push.key", try clientKey.pkcs8PEM())
        let p12 = directory + "/push.p12"
        let export = try ChildProcessRunner.run([
            "/usr/bin/openssl", "pkcs12", "-export", "-in", pem, "-inkey", keyFile, "-out", p12, "-passout", "pass:pw",
        ])
        #expect(export == 0)
        let status = await herald([
            "send", "--endpoint", "https://localhost:\(server.port)", "--ca-file", ca, "--cert", p12,
            "--cert-password", "pw", "--topic", "com.example.app", "-t", String(repeating: "ab", count: 32), "--alert", "Hi",
        ])
        #expect(status == 0)
        #expect(handler.certificates.withLock { $0 } == ["Apple Push Services: com.example.app"])
        #expect(handler.seen.withLock { $0.first?.authorization } == nil, "certificate auth sends no authorization header")
        await server.shutdown()
        await loops.shutdown()
    }
}

enum ChildProcessRunner {
    static func run(_ arguments: [String]) throws -> Int32 {
        try HeraldTestSupport.ChildProcess(arguments).wait()
    }
}
