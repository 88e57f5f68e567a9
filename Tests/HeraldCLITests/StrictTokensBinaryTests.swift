import Foundation
import Keys
import Testing

/// `herald emulator --strict-tokens` through the real binary: the flag reaches the emulator.
@Suite(.timeLimit(.minutes(1)))
struct StrictTokensBinaryTests {
    @Test func strictEmulatorRefusesUnknownTokensAndOtherTopics() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-strict-\(UUID().uuidString)"
        )
        .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keyPath = directory + "/AuthKey.p8"
        try Data(try P256PrivateKey.generate().pkcs8PEM().utf8).write(to: URL(fileURLWithPath: keyPath))
        let credentials = ["--auth-key", keyPath, "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"]

        let emulator = try EmulatorProcess(["--strict-tokens"] + credentials)
        defer { _ = emulator.stop() }
        let registered = try HeraldBinary.run(
            ["device", "register", "--endpoint", emulator.endpoint, "--topic", "com.example.app"])
        #expect(registered.status == 0, "\(registered.stderr)")
        let token = registered.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.count == 64)

        func send(_ token: String, topic: String) throws -> (status: Int32, stdout: String, stderr: String) {
            try HeraldBinary.run(
                ["send", "--endpoint", emulator.endpoint, "--topic", topic, "--token", token, "--body", "hi"]
                    + credentials)
        }
        let unknownToken = String(repeating: "ab", count: 32)
        let unknown = try send(unknownToken, topic: "com.example.app")
        #expect(unknown.status == 1)
        #expect(
            unknown.stdout.hasPrefix("\(unknownToken) 400 ") && unknown.stdout.contains("BadDeviceToken"), "\(unknown)")

        let otherTopic = try send(token, topic: "com.example.other")
        #expect(otherTopic.status == 1)
        #expect(
            otherTopic.stdout.hasPrefix("\(token) 400 ") && otherTopic.stdout.contains("DeviceTokenNotForTopic"),
            "\(otherTopic)")

        let delivered = try send(token, topic: "com.example.app")
        #expect(delivered.status == 0 && delivered.stdout.hasPrefix("\(token) 200 "), "\(delivered)")
        #expect(emulator.stop() == 0)
    }
}
