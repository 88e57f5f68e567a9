import Foundation
import HeraldCLI
import Keys
import Synchronization
import Testing

@Suite("herald device", .timeLimit(.minutes(1)))
struct DeviceCommandTests {
    static let token = String(repeating: "ab", count: 32)

    static let valid: [([String], DeviceOptions)] = [
        (
            ["device", "register", "--topic", "com.example.app"],
            DeviceOptions(action: .register(topic: "com.example.app", environment: nil, listen: false))
        ),
        (
            [
                "device", "register", "--topic", "com.example.app", "--environment", "production", "--listen",
                "--count", "2",
                "--endpoint", "http://127.0.0.1:8080",
            ],
            DeviceOptions(
                action: .register(topic: "com.example.app", environment: "production", listen: true),
                endpoint: "http://127.0.0.1:8080", count: 2)
        ),
        (
            ["device", "listen", token, "--ca-file", "herald-data/ca.pem", "--count", "1"],
            DeviceOptions(action: .listen(token: token), caFile: "herald-data/ca.pem", count: 1)
        ),
        (["device", "unregister", token], DeviceOptions(action: .unregister(token: token))),
        (
            ["device", "run", "p.json"],
            DeviceOptions(action: .run(profile: "p.json", emulator: nil, until: .end, json: false))
        ),
        (
            [
                "device", "run", "p.json", "--emulator", "http://127.0.0.1:9", "--until", "5m", "--json",
                "--control-token", "s",
            ],
            DeviceOptions(
                action: .run(profile: "p.json", emulator: "http://127.0.0.1:9", until: .seconds(300), json: true),
                controlToken: "s")
        ),
        (
            ["device", "run", "p.json", "--until", "interrupt"],
            DeviceOptions(action: .run(profile: "p.json", emulator: nil, until: .interrupt, json: false))
        ),
    ]

    @Test(arguments: valid)
    func parses(_ arguments: [String], _ expected: DeviceOptions) throws {
        #expect(try parseCommandLine(arguments) == .device(expected))
    }

    static let invalid: [([String], UsageError)] = [
        (["device"], .missingArgument("ACTION")),
        (
            ["device", "pair"],
            .invalidValue(option: "ACTION", value: "pair", rule: "must be register, listen, unregister or run")
        ),
        (["device", "listen"], .missingArgument("TOKEN")),
        (["device", "register"], .missingOption("--topic (the app to register for)")),
        (["device", "register", token, "--topic", "a.b"], .unexpectedArgument(token)),
        (
            ["device", "listen", "abc"],
            .invalidValue(option: "TOKEN", value: "abc", rule: "must be hexadecimal with an even number of digits")
        ),
        (
            ["device", "listen", token, "--count", "0"],
            .invalidValue(option: "--count", value: "0", rule: "must be a whole number above 0")
        ),
        (
            ["device", "register", "--topic", "a.b", "--environment", "staging"],
            .invalidValue(option: "--environment", value: "staging", rule: "must be sandbox or production")
        ),
        (
            ["device", "listen", token, "--topic", "a.b"],
            .invalidValue(option: "--topic", value: nil, rule: "only applies to register")
        ),
        (
            ["device", "unregister", token, "--listen"],
            .invalidValue(option: "--listen", value: nil, rule: "only applies to register")
        ),
        (["device", "run"], .missingArgument("PROFILE")),
        (
            ["device", "run", "p.json", "--until", "soon"],
            .invalidValue(
                option: "--until", value: "soon", rule: "must be end, interrupt or a duration such as 30s or 5m")
        ),
        (
            ["device", "listen", token, "--json"],
            .invalidValue(option: "--json", value: nil, rule: "only applies to run")
        ),
        (
            ["device", "register", "--topic", "a.b", "--emulator", "http://127.0.0.1:9"],
            .invalidValue(option: "--emulator", value: nil, rule: "only applies to run")
        ),
    ]

    @Test(arguments: invalid)
    func rejects(_ arguments: [String], _ expected: UsageError) {
        #expect(throws: expected) { try parseCommandLine(arguments) }
    }

    @Test func emulatorTakesStrictTokens() throws {
        guard case .emulator(let options) = try parseCommandLine(["emulator", "--strict-tokens"]) else {
            Issue.record("not an emulator command")
            return
        }
        #expect(options.strictTokens)
        guard case .emulator(let open) = try parseCommandLine(["emulator"]) else { return }
        #expect(!open.strictTokens)
    }

    /// The whole path through the CLI: herald emulator (h2c, strict tokens), herald device register,
    /// herald send while the device is offline, herald device listen --count 1 gets the stored
    /// notification, herald device unregister, and herald send then gets 410.
    @Test func registerSendListenUnregister() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-dev-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keyPath = directory + "/AuthKey.p8"
        try Data(try P256PrivateKey.generate().pkcs8PEM().utf8).write(to: URL(fileURLWithPath: keyPath))
        let credentials = ["--auth-key", keyPath, "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"]

        let port = Promise<Int>()
        let stop = Promise<Bool>()
        var emulatorContext = CommandContext.system
        emulatorContext.standardOutput = { _ in }
        emulatorContext.onListening = { port.fulfil($0) }
        emulatorContext.waitForTermination = { _ = await stop.value }
        let emulator = Task {
            await runHerald(
                ["emulator", "--plaintext", "--listen", "127.0.0.1:0", "--strict-tokens"] + credentials,
                context: emulatorContext)
        }
        let endpoint = "http://127.0.0.1:\(await port.value)"

        func run(_ arguments: [String]) async -> (status: Int32, output: String, errors: String) {
            let output = Mutex("")
            let errors = Mutex("")
            var context = CommandContext.system
            context.standardOutput = { text in output.withLock { $0 += text } }
            context.standardError = { text in errors.withLock { $0 += text } }
            context.waitForTermination = { _ = await stop.value }
            let status = await runHerald(arguments, context: context)
            return (status, output.withLock { $0 }, errors.withLock { $0 })
        }

        let registered = await run(["device", "register", "--endpoint", endpoint, "--topic", "com.example.app"])
        #expect(registered.status == 0, "\(registered.errors)")
        let token = registered.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.count == 64)

        let send =
            ["send", "--endpoint", endpoint, "--topic", "com.example.app", "-t", token, "--body", "stored"]
            + credentials
        let sent = await run(send)
        #expect(sent.status == 0 && sent.output.hasPrefix("\(token) 200 "), "\(sent)")

        let listened = await run(["device", "listen", token, "--endpoint", endpoint, "--count", "1"])
        #expect(listened.status == 0, "\(listened.errors)")
        let lines = listened.output.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(
            lines.first?.contains(#""token":"\#(token)""#) == true && lines.first?.contains(#""body":"stored""#) == true
        )

        let unregistered = await run(["device", "unregister", token, "--endpoint", endpoint])
        #expect(unregistered.status == 0 && unregistered.output == "unregistered \(token)\n", "\(unregistered)")
        let gone = await run(send)
        #expect(gone.output.contains("410") && gone.output.contains("Unregistered"), "\(gone)")

        let unknown = await run(["device", "listen", token, "--endpoint", endpoint])
        #expect(unknown.status == 1 && unknown.errors.hasPrefix("herald device listen: 404 token:"), "\(unknown)")

        stop.fulfil(true)
        #expect(await emulator.value == 0)
    }
}
