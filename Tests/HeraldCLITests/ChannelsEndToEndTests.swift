import Foundation
import HeraldCLI
import Keys
import Synchronization
import Testing

/// `herald emulator`, `herald channels` and `herald send --channel` in one process, over TLS with
/// the emulator's generated CA: a channel's whole life as a user drives it.
@Suite(.timeLimit(.minutes(1)))
struct ChannelsEndToEndTests {
    struct Run {
        let status: Int32
        let output: String
        let errors: String
    }

    /// Runs herald, capturing its output.
    static func herald(_ arguments: [String]) async -> Run {
        let output = Mutex("")
        let errors = Mutex("")
        var context = CommandContext.system
        context.standardOutput = { text in output.withLock { $0 += text } }
        context.standardError = { text in errors.withLock { $0 += text } }
        let status = await runHerald(arguments, context: context)
        return Run(status: status, output: output.withLock { $0 }, errors: errors.withLock { $0 })
    }

    @Test func aChannelsLifeThroughTheCLI() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-channels-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keyPath = directory + "/AuthKey.p8"
        try Data(try P256PrivateKey.generate().pkcs8PEM().utf8).write(to: URL(fileURLWithPath: keyPath))
        let update = directory + "/update.json"
        try Data(#"{"aps":{"event":"update","timestamp":1767225600,"content-state":{"score":3}}}"#.utf8)
            .write(to: URL(fileURLWithPath: update))
        let start = directory + "/start.json"
        try Data(
            #"{"aps":{"event":"start","timestamp":1767225600,"content-state":{},"attributes-type":"A","attributes":{},"alert":{"title":"t","body":"b"}}}"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: start))
        let credentials = ["--auth-key", keyPath, "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"]

        let port = Promise<Int>()
        let stop = Promise<Bool>()
        var emulatorContext = CommandContext.system
        emulatorContext.standardOutput = { _ in }
        emulatorContext.onListening = { port.fulfil($0) }
        emulatorContext.waitForTermination = { _ = await stop.value }
        let emulator = Task {
            await runHerald(
                [
                    "emulator", "--data-dir", directory + "/data", "--listen", "127.0.0.1:0", "--topic",
                    "com.example.app",
                ]
                    + credentials, context: emulatorContext)
        }
        let listening = await port.value
        let server =
            ["--endpoint", "https://localhost:\(listening)", "--ca-file", directory + "/data/ca.pem"] + credentials
        let app = ["--bundle-id", "com.example.app"]

        let created = await Self.herald(["channels", "create", "--storage-policy", "0"] + app + server)
        #expect(created.status == 0, "\(created.errors)")
        let channel = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(channel.count == 24 && channel.hasSuffix("=="), "a base64 channel id: \(channel)")

        let read = await Self.herald(["channels", "read", "--channel", channel, "--json"] + app + server)
        #expect(read.status == 0, "\(read.errors)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(read.output.utf8)) as? [String: Any])
        #expect(object["message-storage-policy"] as? Int == 0 && object["push-type"] as? String == "LiveActivity")
        #expect(object["apns-channel-id"] as? String == channel)

        let listed = await Self.herald(["channels", "list", "--topic", "com.example.app"] + server)
        #expect(listed.status == 0 && listed.output == channel + "\n")

        let sent = await Self.herald(
            [
                "send", "--channel", channel, "--topic", "com.example.app", "--expiration", "0", "--priority", "5",
                update,
            ] + server)
        #expect(sent.status == 0, "\(sent.output) \(sent.errors)")
        #expect(sent.output.hasPrefix("\(channel) 200 "))

        let stored = await Self.herald(
            [
                "send", "--channel", channel, "--topic", "com.example.app", "--expiration", "1767225600", "--force",
                update,
            ] + server)
        #expect(stored.status == 1)
        #expect(stored.output.hasPrefix("\(channel) 400 ") && stored.output.hasSuffix(" BadExpirationDate\n"))

        let linted = await Self.herald(["send", "--channel", channel, "--topic", "com.example.app", start] + server)
        #expect(linted.status == 1)
        #expect(
            linted.errors.contains("BCAST-START") && linted.output.isEmpty,
            "lint stops a broadcast start before sending")

        let deleted = await Self.herald(["channels", "delete", "--channel", channel] + app + server)
        #expect(deleted.status == 0 && deleted.output == "deleted \(channel)\n")

        let gone = await Self.herald(["channels", "read", "--channel", channel] + app + server)
        #expect(gone.status == 1)
        #expect(gone.errors.contains("400 ChannelNotRegistered"))

        let orphan = await Self.herald(
            ["send", "--channel", channel, "--topic", "com.example.app", "--json", update] + server)
        #expect(orphan.status == 1)
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(orphan.output.utf8)) as? [String: Any])
        #expect(answer["reason"] as? String == "ChannelNotRegistered" && answer["status"] as? Int == 400)

        let foreign = await Self.herald(["channels", "list", "--bundle-id", "com.other.app", "--json"] + server)
        #expect(foreign.status == 1 && foreign.output.contains("TopicMismatch"))

        stop.fulfil(true)
        #expect(await emulator.value == 0)
    }
}
