import Foundation
import HeraldCLI
import Keys
import Synchronization
import Testing

/// A value set once from any thread and awaited by tasks.
final class Promise<Value: Sendable>: Sendable {
    private let state = Mutex<(value: Value?, waiters: [CheckedContinuation<Value, Never>])>((nil, []))

    func fulfil(_ value: Value) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, Never>] in
            guard state.value == nil else { return [] }
            state.value = value
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }

    var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Value? in
                    if let value = state.value { return value }
                    state.waiters.append(continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}

/// `herald emulator` and `herald send` in one process: the README's end-to-end path.
@Suite(.timeLimit(.minutes(1)))
struct EmulatorCommandTests {
    @Test func sendReachesTheEmulatorOverTLSWithItsGeneratedCA() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-emu-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keyPath = directory + "/AuthKey.p8"
        try Data(try P256PrivateKey.generate().pkcs8PEM().utf8).write(to: URL(fileURLWithPath: keyPath))
        let credentials = ["--auth-key", keyPath, "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"]

        let port = Promise<Int>()
        let stop = Promise<Bool>()
        let emulatorOutput = Mutex("")
        var emulatorContext = CommandContext.system
        emulatorContext.standardOutput = { text in emulatorOutput.withLock { $0 += text } }
        emulatorContext.onListening = { port.fulfil($0) }
        emulatorContext.waitForTermination = { _ = await stop.value }
        let emulator = Task {
            await runHerald(
                ["emulator", "--data-dir", directory + "/data", "--listen", "127.0.0.1:0", "--topic", "com.example.app"]
                    + credentials, context: emulatorContext)
        }
        let listening = await port.value

        let sendOutput = Mutex("")
        var sendContext = CommandContext.system
        sendContext.standardOutput = { text in sendOutput.withLock { $0 += text } }
        sendContext.standardError = { _ in }
        let token = String(repeating: "ab", count: 32)
        let sent = await runHerald(
            ["send", "--endpoint", "https://localhost:\(listening)", "--ca-file", directory + "/data/ca.pem",
             "--topic", "com.example.app", "-t", token, "--title", "Hello", "--body", "from herald"] + credentials,
            context: sendContext)
        #expect(sent == 0, "\(sendOutput.withLock { $0 })")
        #expect(sendOutput.withLock { $0 }.hasPrefix("\(token) 200 "))

        stop.fulfil(true)
        #expect(await emulator.value == 0)
        let output = emulatorOutput.withLock { $0 }
        #expect(output.contains("listening on https://127.0.0.1:\(listening) (sandbox)"))
        #expect(output.contains("stopped after answering 1 request\n"))
        var key = stat()
        #expect(stat(directory + "/data/emulator-key.pem", &key) == 0)
        #expect(key.st_mode & 0o777 == 0o600, "the generated key is its owner's alone")
    }

    @Test func aDataDirectoryThatCannotBeMadeIsAOneLineErrorWithTheReason() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-emu-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data("not a directory".utf8).write(to: URL(fileURLWithPath: directory + "/file"))
        for plaintext in [true, false] {  // the state's directory, and the TLS files' (made first)
            var context = CommandContext.system
            let errors = Mutex("")
            context.standardError = { text in errors.withLock { $0 += text } }
            context.standardOutput = { _ in }
            let status = await runHerald(
                ["emulator", "--data-dir", directory + "/file/data"] + (plaintext ? ["--plaintext"] : []),
                context: context)
            #expect(status == 1)
            #expect(
                errors.withLock { $0 }
                    == "herald emulator: cannot create --data-dir '\(directory)/file/data': Not a directory\n")
        }
    }

    @Test func badSetupIsAOneLineError() async throws {
        var context = CommandContext.system
        let errors = Mutex("")
        context.standardError = { text in errors.withLock { $0 += text } }
        context.standardOutput = { _ in }
        let status = await runHerald(
            ["emulator", "--plaintext", "--auth-key", "/nonexistent.p8", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"],
            context: context)
        #expect(status == 1)
        #expect(errors.withLock { $0 }.hasPrefix("herald emulator: --auth-key: cannot read '/nonexistent.p8'"))
        #expect(errors.withLock { $0 }.split(separator: "\n").count == 1)
    }
}
