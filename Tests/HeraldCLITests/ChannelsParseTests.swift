import APNs
import HeraldCLI
import Testing

/// `herald channels` and `herald send --channel` parsed in memory.
@Suite(.timeLimit(.minutes(1)))
struct ChannelsParseTests {
    static let auth = ["--auth-key", "k.p8", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"]
    static let token = SendOptions.Credentials.token(authKeyPath: "k.p8", keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
    static let channel = "dHN0LXNyY2gtY2hubA=="

    static func options(
        _ action: ChannelsOptions.Action, _ change: (inout ChannelsOptions) throws -> Void = { _ in }
    ) rethrows -> Command {
        var options = ChannelsOptions(action: action, credentials: token, bundleID: "com.example.app")
        try change(&options)
        return .channels(options)
    }

    @Test func parsesEachAction() throws {
        let channelID = try ChannelID(Self.channel)
        let cases: [([String], Command)] = [
            (
                ["channels", "create", "--bundle-id", "com.example.app", "--storage-policy", "0"] + Self.auth,
                Self.options(.create) { $0.storagePolicy = .noStorage }
            ),
            (
                ["channels", "create", "--topic", "com.example.app", "--storage-policy", "1", "--json"] + Self.auth,
                Self.options(.create) {
                    $0.storagePolicy = .mostRecentMessage
                    $0.json = true
                }
            ),
            (
                ["channels", "read", "--bundle-id", "com.example.app", "--channel", Self.channel, "--production"]
                    + Self.auth,
                Self.options(.read) {
                    $0.channelID = channelID
                    $0.destination = .production
                }
            ),
            (
                [
                    "channels", "delete", "--bundle-id", "com.example.app", "--channel", Self.channel,
                    "--endpoint", "https://localhost:2197", "--ca-file", "ca.pem",
                ] + Self.auth,
                Self.options(.delete) {
                    $0.channelID = channelID
                    $0.destination = .endpoint("https://localhost:2197")
                    $0.caFile = "ca.pem"
                }
            ),
            (
                ["channels", "list", "--bundle-id", "com.example.app", "--cert", "push.p12", "--timeout", "5"],
                .channels(
                    ChannelsOptions(
                        action: .list, credentials: .certificate(path: "push.p12", keyPath: nil, password: nil),
                        bundleID: "com.example.app", timeoutSeconds: 5))
            ),
        ]
        for (arguments, expected) in cases {
            #expect(try parseCommandLine(arguments) == expected, "\(arguments)")
        }
    }

    static let invalid: [([String], UsageError)] = [
        (["channels", "--bundle-id", "a.b"] + auth, .missingArgument("ACTION")),
        (
            ["channels", "make", "--bundle-id", "a.b"] + auth,
            .invalidValue(option: "ACTION", value: "make", rule: "must be create, read, delete or list")
        ),
        (["channels", "list", "extra", "--bundle-id", "a.b"] + auth, .unexpectedArgument("extra")),
        (["channels", "list"] + auth, .missingOption("--topic (the app's bundle id)")),
        (
            ["channels", "list", "--bundle-id", "a.b", "--topic", "a.b"] + auth,
            .duplicateOption("--topic")
        ),
        (["channels", "create", "--bundle-id", "a.b"] + auth, .missingOption("--storage-policy (0 or 1, for create)")),
        (
            ["channels", "create", "--bundle-id", "a.b", "--storage-policy", "2"] + auth,
            .invalidValue(
                option: "--storage-policy", value: "2", rule: "must be 0 (no storage) or 1 (most recent message)")
        ),
        (
            ["channels", "list", "--bundle-id", "a.b", "--storage-policy", "1"] + auth,
            .invalidValue(option: "--storage-policy", value: nil, rule: "is for create only")
        ),
        (["channels", "read", "--bundle-id", "a.b"] + auth, .missingOption("--channel (the channel id, for read)")),
        (
            ["channels", "delete", "--bundle-id", "a.b"] + auth,
            .missingOption("--channel (the channel id, for delete)")
        ),
        (
            ["channels", "read", "--bundle-id", "a.b", "--channel", "abc"] + auth,
            .invalidValue(option: "--channel", value: "abc", rule: "must be the base64 id APNs gave on create")
        ),
        (
            ["channels", "list", "--bundle-id", "a.b", "--channel", channel] + auth,
            .invalidValue(option: "--channel", value: nil, rule: "is for read and delete only")
        ),
        (
            ["channels", "list", "--bundle-id", "a.b", "--request-id", "x"] + auth,
            .invalidValue(option: "--request-id", value: "x", rule: "must be a UUID (8-4-4-4-12 hexadecimal digits)")
        ),
        (
            ["channels", "list", "--bundle-id", "a.b"],
            .missingOption("--auth-key with --key-id and --team-id, or --cert")
        ),
        (
            ["channels", "list", "--bundle-id", "a.b", "--port-2197"] + auth,
            .unknownOption("--port-2197", suggestion: nil)
        ),
        (
            ["send", "--channel", channel, "--topic", "a.b", "-t", "abcd", "--alert", "x"] + auth,
            .invalidValue(
                option: "--channel", value: nil,
                rule: "broadcasts go to a channel, not to devices; drop --token and --tokens-file")
        ),
        (
            ["send", "--channel", channel, "--topic", "a.b", "--tokens-file", "t.txt", "--alert", "x"] + auth,
            .invalidValue(
                option: "--channel", value: nil,
                rule: "broadcasts go to a channel, not to devices; drop --token and --tokens-file")
        ),
        (
            ["send", "--channel", channel, "--topic", "a.b", "--requests", "r.ndjson"] + auth,
            .invalidValue(option: "--channel", value: nil, rule: "cannot be combined with --requests")
        ),
        (
            ["send", "--channel", channel, "p.json"] + auth,
            .missingOption("--topic (the app's bundle id, for --channel)")
        ),
        (
            ["send", "--channel", channel, "--topic", "a.b", "--collapse-id", "c", "p.json"] + auth,
            .invalidValue(option: "--collapse-id", value: nil, rule: "cannot be combined with --channel")
        ),
    ]

    @Test(arguments: invalid)
    func rejects(_ arguments: [String], _ expected: UsageError) {
        #expect(throws: expected) { try parseCommandLine(arguments) }
    }

    @Test func bundleIDsWithASuffixAreRefused() {
        do {
            _ = try parseCommandLine(["channels", "list", "--bundle-id", "com.example.app.voip"] + Self.auth)
            Issue.record("a suffixed bundle id was accepted")
        } catch {
            guard case .invalidValue(let option, _, let rule) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(option == "--topic" && rule.contains("suffix"))
        }
    }

    @Test func sendParsesAChannel() throws {
        let command = try parseCommandLine(
            ["send", "--channel", Self.channel, "--topic", "com.example.app", "p.json"] + Self.auth)
        guard case .send(let options) = command else {
            Issue.record("not a send: \(command)")
            return
        }
        #expect(options.channel == Self.channel && options.topic == "com.example.app" && options.tokens.isEmpty)
    }
}

@Suite(.timeLimit(.minutes(1)))
struct EmulatorChannelLimitParseTests {
    @Test(arguments: [(["--channel-limit", "0"], 0 as Int?), (["--channel-limit", "25"], 25), ([], nil)])
    func channelLimit(_ extra: [String], _ expected: Int?) throws {
        guard case .emulator(let options) = try parseCommandLine(["emulator"] + extra) else {
            Issue.record("not an emulator command")
            return
        }
        #expect(options.channelLimit == expected)
    }

    @Test(arguments: ["-1", "x", ""])
    func badChannelLimit(_ text: String) {
        #expect(
            throws: UsageError.invalidValue(
                option: "--channel-limit", value: text, rule: "must be a whole number, 0 or more")
        ) {
            try parseCommandLine(["emulator", "--channel-limit", text])
        }
    }
}

@Suite(.timeLimit(.minutes(1)))
struct EmulatorLoopsParseTests {
    @Test(arguments: [(["--loops", "1"], 1 as Int?), (["--loops", "8"], 8), ([], nil)])
    func loops(_ extra: [String], _ expected: Int?) throws {
        guard case .emulator(let options) = try parseCommandLine(["emulator"] + extra) else {
            Issue.record("not an emulator command")
            return
        }
        #expect(options.loops == expected)
    }

    @Test(arguments: ["0", "-2", "257", "two"])
    func badLoops(_ text: String) {
        #expect(
            throws: UsageError.invalidValue(option: "--loops", value: text, rule: "must be a whole number from 1 to 256")
        ) {
            try parseCommandLine(["emulator", "--loops", text])
        }
    }
}
