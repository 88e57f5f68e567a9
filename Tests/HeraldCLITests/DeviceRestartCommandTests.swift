import Foundation
import HeraldCLI
import Keys
import Synchronization
import Testing

/// `herald emulator` restarted on the same --data-dir: a device registered before the restart
/// gets, with `herald device listen`, what was sent to it while it was offline (issue 4).
@Suite("herald device across an emulator restart", .timeLimit(.minutes(1)))
struct DeviceRestartCommandTests {
    /// A `herald emulator` on `directory/data` until `stop` is fulfilled.
    struct RunningEmulator {
        let port: Int
        let stop: Promise<Bool>
        let status: Task<Int32, Never>
        let output: @Sendable () -> String
    }

    func startEmulator(_ directory: String, _ credentials: [String]) async -> RunningEmulator {
        let port = Promise<Int>()
        let stop = Promise<Bool>()
        let output = Mutex("")
        var context = CommandContext.system
        context.standardOutput = { text in output.withLock { $0 += text } }
        context.standardError = { text in output.withLock { $0 += text } }
        context.onListening = { port.fulfil($0) }
        context.waitForTermination = { _ = await stop.value }
        let status = Task {
            await runHerald(
                ["emulator", "--plaintext", "--listen", "127.0.0.1:0", "--data-dir", directory + "/data"]
                    + credentials, context: context)
        }
        return RunningEmulator(port: await port.value, stop: stop, status: status, output: { output.withLock { $0 } })
    }

    func run(_ arguments: [String]) async -> (status: Int32, output: String, errors: String) {
        let output = Mutex("")
        let errors = Mutex("")
        var context = CommandContext.system
        context.standardOutput = { text in output.withLock { $0 += text } }
        context.standardError = { text in errors.withLock { $0 += text } }
        let status = await runHerald(arguments, context: context)
        return (status, output.withLock { $0 }, errors.withLock { $0 })
    }

    @Test func listenAfterARestartGetsWhatWasStoredBefore() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-dev-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keyPath = directory + "/AuthKey.p8"
        try Data(try P256PrivateKey.generate().pkcs8PEM().utf8).write(to: URL(fileURLWithPath: keyPath))
        let credentials = ["--auth-key", keyPath, "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"]

        let first = await startEmulator(directory, credentials)
        var endpoint = "http://127.0.0.1:\(first.port)"
        let registered = await run(["device", "register", "--endpoint", endpoint, "--topic", "com.example.app"])
        #expect(registered.status == 0, "\(registered.errors)")
        let token = registered.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let sent = await run(
            ["send", "--endpoint", endpoint, "--topic", "com.example.app", "-t", token, "--body", "before the restart"]
                + credentials)
        #expect(sent.status == 0 && sent.output.hasPrefix("\(token) 200 "), "\(sent)")
        first.stop.fulfil(true)
        #expect(await first.status.value == 0)

        let second = await startEmulator(directory, credentials)
        #expect(second.output().contains("1 simulated devices (offline until they listen)"), "\(second.output())")
        endpoint = "http://127.0.0.1:\(second.port)"
        let listened = await run(["device", "listen", token, "--endpoint", endpoint, "--count", "1"])
        #expect(listened.status == 0, "\(listened.errors)")
        let lines = listened.output.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(
            lines.first?.contains(#""token":"\#(token)""#) == true
                && lines.first?.contains(#""body":"before the restart""#) == true, "\(listened.output)")
        second.stop.fulfil(true)
        #expect(await second.status.value == 0)
    }
}
