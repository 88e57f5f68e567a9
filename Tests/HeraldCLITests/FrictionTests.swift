import Foundation
import HeraldCLI
import Keys
import Testing

/// What a new user met in the first hour (issue 11), each refused or mended.
@Suite(.timeLimit(.minutes(1)))
struct FrictionTests {
    static let token = String(repeating: "ab", count: 32)
    static let tokenAuth = ["--auth-key", "k.p8", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"]

    static let refused: [([String], UsageError)] = [
        (
            ["send", "-t", token, "--alert", "x"] + tokenAuth,
            .missingOption("--topic (the app's bundle id: token auth needs apns-topic)")
        ),
        (
            ["send", "--endpoint", "localhost:2197", "--topic", "a.b", "-t", token, "--alert", "x"] + tokenAuth,
            .invalidValue(
                option: "--endpoint", value: "localhost:2197",
                rule: "needs a scheme: https://localhost:2197 (or http://localhost:2197 for h2c)")
        ),
        (
            ["send", "--endpoint", "https://h:8443", "--port-2197", "--topic", "a.b", "-t", token, "--alert", "x"]
                + tokenAuth,
            .invalidValue(
                option: "--port-2197", value: nil, rule: "cannot be combined with --endpoint; give the port in its URL")
        ),
        (
            ["device", "register", "--topic", "a.b", "--count", "2"],
            .invalidValue(option: "--count", value: nil, rule: "only applies to listen (or register --listen)")
        ),
        (
            ["device", "listen", token, "--endpoint", "127.0.0.1:2197"],
            .invalidValue(
                option: "--endpoint", value: "127.0.0.1:2197",
                rule: "needs a scheme: https://127.0.0.1:2197 (or http://127.0.0.1:2197 for h2c)")
        ),
    ]

    @Test(arguments: refused)
    func refusedBeforeAnythingIsSent(_ arguments: [String], _ expected: UsageError) async {
        #expect(throws: expected) { try parseCommandLine(arguments) }
        let process = FakeProcess(files: ["k.p8": SendCommandTests.key])
        #expect(await process.run(arguments) == 2, "a wrong command line exits 2")
        #expect(process.transport.requests.isEmpty)
    }

    @Test func flagsBeatTheEnvironment() throws {
        let environment = [
            "HERALD_AUTH_KEY": "k.p8", "HERALD_KEY_ID": "ABC123DEFG", "HERALD_TEAM_ID": "DEF123GHIJ",
            "HERALD_ENDPOINT": "https://localhost:2197", "HERALD_CA_FILE": "ca.pem",
        ]
        let certificate = try parseCommandLine(
            ["send", "--cert", "push.p12", "-t", Self.token, "--alert", "x"], environment: environment)
        guard case .send(let options) = certificate else { throw UsageError.missingArgument("send") }
        #expect(options.credentials == .certificate(path: "push.p12", keyPath: nil, password: nil))
        #expect(options.destination == .endpoint("https://localhost:2197"), "the environment fills in the rest")
        #expect(options.caFile == "ca.pem")

        let production = try parseCommandLine(
            ["send", "--production", "--topic", "a.b", "-t", Self.token, "--alert", "x"], environment: environment)
        guard case .send(let chosen) = production else { throw UsageError.missingArgument("send") }
        #expect(chosen.destination == .production, "--production beats HERALD_ENDPOINT")

        let device = try parseCommandLine(["device", "listen", Self.token], environment: environment)
        #expect(device == .device(DeviceOptions(action: .listen(token: Self.token), caFile: "ca.pem")))
        #expect(
            try parseCommandLine(["device", "listen", Self.token], environment: ["HERALD_ENDPOINT": "http://h:1"])
                == .device(DeviceOptions(action: .listen(token: Self.token), endpoint: "http://h:1")))
    }

    @Test func aDryRunNeedsNoCredentials() async {
        let process = FakeProcess()
        #expect(await process.run(["send", "--dry-run", "-t", Self.token, "--alert", "x", "--topic", "a.b"]) == 0)
        #expect(
            process.stdout.hasPrefix("POST https://api.sandbox.push.apple.com/3/device/\(Self.token)"),
            "\(process.stdout)")
        #expect(process.stderr.hasSuffix("none sent\n"), "\(process.stderr)")
    }

    @Test func anUnreadableCAFileIsNamedAsTheCAFile() async {
        let process = FakeProcess(files: ["k.p8": SendCommandTests.key])
        let status = await process.run(
            ["send", "--ca-file", "nope.pem", "--topic", "a.b", "-t", Self.token, "--alert", "x"] + Self.tokenAuth)
        #expect(status == 1)
        #expect(process.stderr == "herald send: --ca-file: cannot read 'nope.pem': No such file or directory\n")
    }

    @Test func aClosedPortIsNamed() throws {
        // Port 1 (tcpmux) on loopback: nothing listens there on a test machine.
        let closed = try HeraldBinary.run(["device", "register", "--endpoint", "http://127.0.0.1:1", "--topic", "a.b"])
        #expect(closed.status == 1)
        #expect(closed.stderr.hasPrefix("herald device register: http://127.0.0.1:1: "), "\(closed.stderr)")
    }

    /// Against `herald emulator` over TLS: from its directory no --ca-file is needed (its
    /// herald-data/ca.pem is found); from elsewhere a verification failure says what to pass, at once.
    @Test func theEmulatorsCAIsFoundAndAMissingOneExplained() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-ca-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keyPath = directory + "/AuthKey.p8"
        try Data(try P256PrivateKey.generate().pkcs8PEM().utf8).write(to: URL(fileURLWithPath: keyPath))
        let credentials = ["--auth-key", keyPath, "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"]
        let emulator = try EmulatorProcess(credentials, tlsIn: directory)
        defer { _ = emulator.stop() }

        let registered = try HeraldBinary.run(
            ["device", "register", "--endpoint", emulator.tlsEndpoint, "--topic", "com.example.app"],
            directory: directory)
        #expect(registered.status == 0, "\(registered.stderr)")
        let send = ["send", "--topic", "com.example.app", "-t", Self.token, "--body", "hi"] + credentials
        let found = try HeraldBinary.run(
            send, environment: ["HERALD_ENDPOINT": emulator.tlsEndpoint], directory: directory)
        #expect(found.status == 0 && found.stdout.hasPrefix("\(Self.token) 200 "), "\(found)")

        let elsewhere = try HeraldBinary.run(send + ["--endpoint", emulator.tlsEndpoint], directory: "/")
        #expect(elsewhere.status == 1)
        #expect(elsewhere.stdout.contains("certificate verification failed"), "\(elsewhere)")
        #expect(
            elsewhere.stdout.contains(
                "; pass --ca-file with the server's CA (for herald emulator: herald-data/ca.pem)"),
            "\(elsewhere)")
    }
}
