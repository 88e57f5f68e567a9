import APNs
import Foundation
import Keys
import Synchronization
import Testing

@testable import HeraldCLI

@Suite(.timeLimit(.minutes(1)))
struct EmulatorConfigFileTests {
    @Test func teamsKeysTopicsAndEnvironments() throws {
        let file = try EmulatorConfigFile(
            bytes: Array(
                """
                {"teams":[
                  {"team-id":"DEF123GHIJ","topics":["com.example.app"],
                   "keys":[{"key-id":"ABC123DEFG","auth-key":"a.p8"},{"key-id":"ABC123DEFH","public-key":"/keys/b.pem","environment":"sandbox"}]},
                  {"team-id":"XYZ987WVUT","keys":[{"key-id":"QRS456TUVW","auth-key":"c.p8","environment":"production"}]}
                ]}
                """.utf8), path: "/etc/herald/emulator.json")
        #expect(file.keys.map(\.keyID) == ["ABC123DEFG", "ABC123DEFH", "QRS456TUVW"])
        #expect(file.keys.map(\.path) == ["/etc/herald/a.p8", "/keys/b.pem", "/etc/herald/c.p8"])
        #expect(file.keys.map(\.isPublicKey) == [false, true, false])
        #expect(file.keys.map(\.environment) == [.both, .sandbox, .production])
        #expect(file.keys[0].topics == ["com.example.app"] && file.keys[2].topics.isEmpty)
        #expect(file.allTopics == nil, "the second team names no topics: any topic")
        let camelCase = try EmulatorConfigFile(
            bytes: Array(Self.old.utf8), path: "/etc/herald/emulator.json")
        #expect(camelCase == file, "the names files were first written with are still read")
    }

    static let old = """
        {"teams":[
          {"teamId":"DEF123GHIJ","topics":["com.example.app"],
           "keys":[{"keyId":"ABC123DEFG","authKey":"a.p8"},{"keyId":"ABC123DEFH","publicKey":"/keys/b.pem","environment":"sandbox"}]},
          {"teamId":"XYZ987WVUT","keys":[{"keyId":"QRS456TUVW","authKey":"c.p8","environment":"production"}]}
        ]}
        """

    /// Keys are checked against the topic's bundle id, so a suffixed topic ("….voip") must count
    /// as its app: kept as written, the team's own VoIP pushes were refused (403 InvalidProviderToken).
    @Test func suffixedTopicsNameTheirApp() throws {
        let file = try EmulatorConfigFile(
            bytes: Array(
                """
                {"teams":[{"teamId":"DEF123GHIJ","topics":["com.example.app.voip","com.example.other"],
                  "keys":[{"keyId":"ABC123DEFG","authKey":"a.p8"}]}]}
                """.utf8), path: "cfg.json")
        #expect(file.keys[0].topics == ["com.example.app", "com.example.other"])
        #expect(file.allTopics == ["com.example.app", "com.example.other"])
    }

    @Test(arguments: [
        ("[]", "(root)"),
        (#"{"teams":[]}"#, "teams"),
        (#"{"teams":[{"teamId":"DEF123GHIJ"}]}"#, "teams[0].keys"),
        (#"{"teams":[{"teamId":"short","keys":[]}]}"#, "teams[0].team-id"),
        (#"{"teams":[{"teamId":"DEF123GHIJ","team-id":"DEF123GHIJ","keys":[]}]}"#, "teams[0].teamId"),
        (#"{"teams":[{"teamId":"DEF123GHIJ","keys":[{"keyId":"ABC123DEFG"}]}]}"#, "teams[0].keys[0]"),
        (
            #"{"teams":[{"teamId":"DEF123GHIJ","keys":[{"keyId":"ABC123DEFG","authKey":"a","publicKey":"b"}]}]}"#,
            "teams[0].keys[0]"
        ),
        (
            #"{"teams":[{"teamId":"DEF123GHIJ","keys":[{"keyId":"ABC123DEFG","authKey":"a","environment":"dev"}]}]}"#,
            "teams[0].keys[0].environment"
        ),
        (
            #"{"teams":[{"teamId":"DEF123GHIJ","topics":["not a topic"],"keys":[{"keyId":"ABC123DEFG","authKey":"a"}]}]}"#,
            "teams[0].topics[0]"
        ),
        (
            #"{"teams":[{"teamId":"DEF123GHIJ","keys":[{"keyId":"ABC123DEFG","authKey":"a"},{"keyId":"ABC123DEFG","authKey":"b"}]}]}"#,
            "teams[0].keys[1].key-id"
        ),
        (
            #"{"teams":[{"teamId":"DEF123GHIJ","team":"x","keys":[{"keyId":"ABC123DEFG","authKey":"a"}]}]}"#,
            "teams[0].team"
        ),
        (#"{"teams":[], "extra":1}"#, "extra"),
        ("{", "cfg.json"),
    ])
    func badFilesNameTheField(text: String, field: String) {
        #expect {
            _ = try EmulatorConfigFile(bytes: Array(text.utf8), path: "cfg.json")
        } throws: { error in
            (error as? FieldError)?.field == field
        }
    }

    /// Two teams from one config file: each team's key works for its own topic only, and a
    /// production-only key is refused by the (sandbox) emulator.
    @Test func theEmulatorTrustsEveryTeamInTheFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-cfg-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try P256PrivateKey.generate()
        let second = try P256PrivateKey.generate()
        let third = try P256PrivateKey.generate()
        try Data(try first.pkcs8PEM().utf8).write(to: URL(fileURLWithPath: directory + "/first.p8"))
        try Data(try second.pkcs8PEM().utf8).write(to: URL(fileURLWithPath: directory + "/second.p8"))
        try Data(try third.pkcs8PEM().utf8).write(to: URL(fileURLWithPath: directory + "/third.p8"))
        try Data(
            """
            {"teams":[
              {"teamId":"TEAMAAAAAA","topics":["com.a.app"],"keys":[{"keyId":"KEYAAAAAAA","authKey":"first.p8"}]},
              {"teamId":"TEAMBBBBBB","topics":["com.b.app"],"keys":[{"keyId":"KEYBBBBBBB","authKey":"second.p8"},
                {"keyId":"KEYCCCCCCC","authKey":"third.p8","environment":"production"}]}
            ]}
            """.utf8
        ).write(to: URL(fileURLWithPath: directory + "/emulator.json"))

        let port = Promise<Int>()
        let stop = Promise<Bool>()
        let emulatorOutput = Mutex("")
        var emulatorContext = CommandContext.system
        emulatorContext.standardOutput = { text in emulatorOutput.withLock { $0 += text } }
        emulatorContext.onListening = { port.fulfil($0) }
        emulatorContext.waitForTermination = { _ = await stop.value }
        let emulator = Task {
            await runHerald(
                [
                    "emulator", "--plaintext", "--in-memory", "--listen", "127.0.0.1:0", "--config",
                    directory + "/emulator.json",
                ],
                context: emulatorContext)
        }
        let listening = await port.value

        func send(key: String, keyID: String, team: String, topic: String) async -> String {
            let output = Mutex("")
            var context = CommandContext.system
            context.standardOutput = { text in output.withLock { $0 += text } }
            context.standardError = { text in output.withLock { $0 += text } }
            _ = await runHerald(
                [
                    "send", "--endpoint", "http://127.0.0.1:\(listening)", "--auth-key", directory + "/" + key,
                    "--key-id", keyID, "--team-id", team, "--topic", topic, "-t", String(repeating: "ab", count: 32),
                    "--body", "hi",
                ],
                context: context)
            return output.withLock { $0 }
        }
        #expect(
            await send(key: "first.p8", keyID: "KEYAAAAAAA", team: "TEAMAAAAAA", topic: "com.a.app").contains(" 200 "))
        #expect(
            await send(key: "second.p8", keyID: "KEYBBBBBBB", team: "TEAMBBBBBB", topic: "com.b.app").contains(" 200 "))
        let crossTeam = await send(key: "first.p8", keyID: "KEYAAAAAAA", team: "TEAMAAAAAA", topic: "com.b.app")
        #expect(crossTeam.contains(" 403 ") && crossTeam.contains(" InvalidProviderToken\n"), "\(crossTeam)")
        let otherEnvironment = await send(key: "third.p8", keyID: "KEYCCCCCCC", team: "TEAMBBBBBB", topic: "com.b.app")
        #expect(
            otherEnvironment.contains(" 403 ") && otherEnvironment.contains(" BadEnvironmentKeyIdInToken\n"),
            "\(otherEnvironment)")
        let unowned = await send(key: "first.p8", keyID: "KEYAAAAAAA", team: "TEAMAAAAAA", topic: "com.c.app")
        #expect(unowned.contains(" 400 ") && unowned.contains(" TopicDisallowed\n"), "\(unowned)")
        stop.fulfil(true)
        #expect(await emulator.value == 0)
        #expect(
            emulatorOutput.withLock { $0 }.contains(
                "accepts provider tokens of keys KEYAAAAAAA (team TEAMAAAAAA), KEYBBBBBBB"))
    }
}
