import APNs
import Foundation
import HeraldCLI
import Keys
import Synchronization
import Testing

/// `herald emulator` writes its millisecond fields from the context's millisecond clock (the
/// system's, for the real process), not from whole seconds.
@Suite(.timeLimit(.minutes(1)))
struct MillisecondCommandTests {
    @Test func deviceLinesCarryTheMillisecondClock() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-ms-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keyPath = directory + "/AuthKey.p8"
        try Data(try P256PrivateKey.generate().pkcs8PEM().utf8).write(to: URL(fileURLWithPath: keyPath))
        let credentials = ["--auth-key", keyPath, "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"]

        let port = Promise<Int>()
        let stop = Promise<Bool>()
        var emulatorContext = CommandContext.system
        let seconds = emulatorContext.now
        emulatorContext.nowMilliseconds = { seconds() * 1000 + 123 }
        emulatorContext.standardOutput = { _ in }
        emulatorContext.onListening = { port.fulfil($0) }
        emulatorContext.waitForTermination = { _ = await stop.value }
        let emulator = Task {
            await runHerald(
                ["emulator", "--plaintext", "--listen", "127.0.0.1:0", "--in-memory"] + credentials,
                context: emulatorContext)
        }
        let endpoint = ["--endpoint", "http://127.0.0.1:\(await port.value)"]
        let token = await ChannelsEndToEndTests.herald(["device", "register", "--topic", "com.example.app"] + endpoint)
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
        let sent = await ChannelsEndToEndTests.herald(
            ["send", "--topic", "com.example.app", "-t", token, "--body", "hi"] + endpoint + credentials)
        #expect(sent.status == 0, "\(sent)")
        let line = await ChannelsEndToEndTests.herald(["device", "listen", token, "--count", "1"] + endpoint).output
        let receivedAt = try JSONValue(parsing: Array(line.utf8))["received-at"]
        #expect(receivedAt?.intValue.map { $0 % 1000 } == 123, "\(line)")
        stop.fulfil(true)
        #expect(await emulator.value == 0)
    }
}
