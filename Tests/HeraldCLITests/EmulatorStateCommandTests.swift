import Foundation
import HeraldCLI
import Keys
import Synchronization
import Testing

/// `herald emulator` keeps its state in DIR/emulator.sqlite unless --in-memory.
@Suite(.timeLimit(.minutes(1)))
struct EmulatorStateCommandTests {
    @Test(arguments: [([String](), false), (["--in-memory"], true)])
    func inMemoryIsParsed(_ extra: [String], _ expected: Bool) throws {
        guard case .emulator(let options) = try parseCommandLine(["emulator"] + extra) else {
            Issue.record("not an emulator command")
            return
        }
        #expect(options.inMemory == expected)
        #expect(options.dataDirectory == "herald-data")
    }

    /// Runs `herald emulator` on `directory` until one push has been sent to it; returns its output.
    func runOnce(_ directory: String, _ extra: [String] = []) async throws -> (Int32, String) {
        let keyPath = directory + "/AuthKey.p8"
        if !FileManager.default.fileExists(atPath: keyPath) {
            try Data(try P256PrivateKey.generate().pkcs8PEM().utf8).write(to: URL(fileURLWithPath: keyPath))
        }
        let credentials = ["--auth-key", keyPath, "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"]
        let port = Promise<Int>()
        let stop = Promise<Bool>()
        let output = Mutex("")
        var context = CommandContext.system
        context.standardOutput = { text in output.withLock { $0 += text } }
        context.standardError = { text in output.withLock { $0 += text } }
        context.onListening = { port.fulfil($0) }
        context.waitForTermination = { _ = await stop.value }
        let emulator = Task {
            await runHerald(
                ["emulator", "--plaintext", "--data-dir", directory + "/data", "--listen", "127.0.0.1:0"] + extra
                    + credentials, context: context)
        }
        let listening = await port.value
        var sendContext = CommandContext.system
        sendContext.standardOutput = { _ in }
        sendContext.standardError = { _ in }
        let sent = await runHerald(
            [
                "send", "--endpoint", "http://127.0.0.1:\(listening)", "--topic", "com.example.app", "-t",
                String(repeating: "ab", count: 32), "--body", "hi",
            ] + credentials,
            context: sendContext)
        #expect(sent == 0)
        stop.fulfil(true)
        return (await emulator.value, output.withLock { $0 })
    }

    @Test func aSecondRunRestoresTheFirstRunsLog() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-state-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (first, firstOutput) = try await runOnce(directory)
        #expect(first == 0)
        #expect(
            firstOutput.contains("state in \(directory)/data/emulator.sqlite: 0 deliveries (of 0) restored"),
            "\(firstOutput)")
        let (second, secondOutput) = try await runOnce(directory)
        #expect(second == 0)
        #expect(
            secondOutput.contains("state in \(directory)/data/emulator.sqlite: 1 deliveries (of 1) restored"),
            "\(secondOutput)")
        #expect(secondOutput.contains("stopped after answering 1 request\n"), "this run's requests")
        let (third, thirdOutput) = try await runOnce(directory, ["--in-memory"])
        #expect(third == 0)
        #expect(!thirdOutput.contains("state in"), "\(thirdOutput)")
    }

    @Test func aDataFileThatIsNotADatabaseIsAOneLineError() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-state-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(String(repeating: "garbage ", count: 512).utf8).write(
            to: URL(fileURLWithPath: directory + "/data/emulator.sqlite"))
        let errors = Mutex("")
        var context = CommandContext.system
        context.standardError = { text in errors.withLock { $0 += text } }
        context.standardOutput = { _ in }
        let status = await runHerald(["emulator", "--plaintext", "--data-dir", directory + "/data"], context: context)
        #expect(status == 1)
        let text = errors.withLock { $0 }
        #expect(
            text.hasPrefix("herald emulator: cannot open the state in '\(directory)/data/emulator.sqlite': SQLite"),
            "\(text)")
        #expect(text.contains("file is not a database") && text.contains("--in-memory runs without it"), "\(text)")
        #expect(text.split(separator: "\n").count == 1)
    }
}
