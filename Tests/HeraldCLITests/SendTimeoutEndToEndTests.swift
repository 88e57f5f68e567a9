import Foundation
import HTTP2
import HeraldCLI
import Keys
import Synchronization
import Testing

/// `herald send --timeout` against a server that accepts TCP and never answers: the run ends within
/// the timeout, saying the connect timed out in the TLS handshake and the notification was not delivered.
@Suite(.timeLimit(.minutes(1)))
struct SendTimeoutEndToEndTests {
    @Test func aSilentServerFailsWithinTheTimeoutAsNotDelivered() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-timeout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let p8 = directory.appendingPathComponent("AuthKey.p8")
        try Data(try P256PrivateKey.generate().pkcs8PEM().utf8).write(to: p8)
        let listener = try TCPListener(host: "127.0.0.1", port: 0)  // accepts (backlog), never speaks
        defer { listener.close() }
        let output = Mutex("")
        var context = CommandContext.system
        context.standardOutput = { text in output.withLock { $0 += text } }
        context.standardError = { text in output.withLock { $0 += text } }
        let started = ContinuousClock.now
        let status = await runHerald(
            [
                "send", "--endpoint", "https://127.0.0.1:\(try listener.localAddress.port)", "--auth-key", p8.path,
                "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ", "--topic", "com.example.app",
                "-t", String(repeating: "ab", count: 32), "--body", "Hi", "--timeout", "1", "--retries", "0",
            ], context: context)
        let took = ContinuousClock.now - started
        let printed = output.withLock { $0 }
        #expect(status == 1)
        #expect(took < .milliseconds(2500), "took \(took)")
        #expect(printed.contains("timed out after 1.0 s connecting to 127.0.0.1"), "\(printed)")
        #expect(printed.contains("TLS handshake"), "\(printed)")
        #expect(printed.contains("not delivered"), "\(printed)")
        #expect(!printed.contains("may have been delivered"), "\(printed)")
    }
}
