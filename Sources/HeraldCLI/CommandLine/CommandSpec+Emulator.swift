import HTTP2

extension CommandSpec {
    /// `herald emulator`: an APNs you can run on a laptop and in CI.
    public static let emulator = CommandSpec(
        name: "emulator",
        summary: "Run an APNs-compatible server that answers as APNs does, with a delivery log.",
        options: [
            OptionSpec("listen", valueName: "HOST:PORT", help: "Where to listen (default 127.0.0.1:2197)."),
            OptionSpec("plaintext", help: "Serve h2c (HTTP/2 without TLS) instead of TLS."),
            OptionSpec(
                "console", valueName: "HOST:PORT",
                help:
                    "Serve the web console at http://HOST:PORT/console, a listener of its own (HTTP/1.1 and h2c; "
                    + "port 0: any free one)."),
            OptionSpec("tls-cert", valueName: "PEM", help: "The server certificate (chain) to present."),
            OptionSpec("tls-key", valueName: "PEM", help: "Its private key.", isSecret: true),
            OptionSpec(
                "client-ca", valueName: "PEM",
                help: "Accept certificate auth: client certificates issued by these CAs (default: token auth only)."),
            OptionSpec(
                "data-dir", valueName: "DIR",
                help:
                    "Where the emulator keeps its files: its state (emulator.sqlite), a generated CA and certificate "
                    + "(default ./herald-data)."),
            OptionSpec(
                "in-memory",
                help: "Keep the delivery log, unregistered tokens and channels in memory only (gone on exit)."),
            OptionSpec(
                "auth-key", valueName: "FILE", help: "A team's .p8 key; its provider tokens are accepted.",
                isSecret: true,
                environmentVariable: "HERALD_AUTH_KEY"),
            OptionSpec(
                "key-id", valueName: "KEY_ID", help: "The key's 10-character ID.", environmentVariable: "HERALD_KEY_ID"),
            OptionSpec(
                "team-id", valueName: "TEAM_ID", help: "The team's 10-character ID.",
                environmentVariable: "HERALD_TEAM_ID"),
            OptionSpec(
                "config", valueName: "FILE",
                help: "A JSON file of teams, their keys (.p8 or public PEM, per environment) and topics; see below."),
            OptionSpec(
                "topic", valueName: "BUNDLE_ID", help: "A bundle id pushes may go to (default: any).",
                isRepeatable: true),
            OptionSpec("production", help: "Answer like production: no apns-unique-id."),
            OptionSpec(
                "idle-timeout", valueName: "SECONDS",
                help: "Close connections idle this long with GOAWAY IdleTimeout, as APNs does (default: never)."),
            OptionSpec(
                "rate-limit", valueName: "N",
                help: "Pushes per device token per second; more get 429 TooManyRequests (default: none)."),
            OptionSpec(
                "channel-limit", valueName: "N",
                help: "Broadcast channels per app; more get CannotCreateChannelConfig (default 10000)."),
            OptionSpec(
                "loops", valueName: "N",
                help: "Event-loop threads serving connections (default: one per core but one, at least one)."),
            OptionSpec(
                "first-request-timeout", valueName: "SECONDS",
                help: "Close connections that send no request this long after connecting (default 10; 0: never)."),
            OptionSpec(
                "max-connections", valueName: "N",
                help: "Connections open at once; more are closed as soon as accepted (default 10000)."),
            OptionSpec(
                "fault-limit", valueName: "N",
                help: "Faults declared at once; more get 409 TooManyFaults (default 1000)."),
            OptionSpec(
                "unregistered-limit", valueName: "N",
                help: "Tokens marked unregistered through the control API; more get 409 (default 100000)."),
            OptionSpec(
                "control-token", valueName: "SECRET",
                help: "Require 'authorization: bearer SECRET' on /control/v1/ and /device/v1/ (default: none).",
                isSecret: true, environmentVariable: "HERALD_CONTROL_TOKEN"),
            OptionSpec(
                "control-token-file", valueName: "FILE",
                help: "As --control-token, the secret read from FILE (its first line)."),
            OptionSpec(
                "strict-tokens",
                help:
                    "Accept only tokens of registered devices (herald device register): BadDeviceToken, DeviceTokenNotForTopic otherwise."
            ),
        ],
        discussion: """
            Checks every request as APNs does (method, path, token, headers, topic and suffix, priority, \
            payload size and JSON, provider tokens: missing, invalid, expired, unrelated key, refreshed \
            too often) and answers with Apple's status, reason and headers. MAX_CONCURRENT_STREAMS starts \
            at 1 and rises to 1000 once a provider token is accepted, as on APNs. Without --tls-cert it \
            creates a CA and a certificate for localhost, 127.0.0.1 and ::1 in the data directory and \
            prints where: pass that CA to clients (herald send --ca-file, curl --cacert). \
            GET /control/v1/deliveries lists what it answered; POST /control/v1/faults injects \
            failures; GET /control/v1/stats counts answers. It also serves broadcast channels \
            (/1/apps/BUNDLE_ID/channels, /all-channels) and broadcasts (/4/broadcasts/apps/BUNDLE_ID) on the \
            same port: see 'herald channels'. The delivery log, unregistered tokens and channels \
            survive a restart in DIR/emulator.sqlite (--in-memory: they do not). Stop it with Ctrl-C.

            The control API and the device API have no authentication unless --control-token (or \
            --control-token-file, or HERALD_CONTROL_TOKEN) is given: listening on an address other than \
            loopback without one prints a warning. Lists (GET /control/v1/deliveries, devices) come a \
            page at a time: limit (default 100, at most 1000) and next-cursor, passed back as cursor=.

            Several teams and keys: --config FILE with { "teams": [ { "team-id": "DEF123GHIJ", \
            "topics": ["com.example.app"], "keys": [ { "key-id": "ABC123DEFG", "auth-key": "AuthKey.p8", \
            "environment": "both" } ] } ] } (a key may be "public-key": "PEM" instead). A team's tokens are refused for \
            topics it does not own (403 InvalidProviderToken); a key limited to one environment is refused \
            in the other (403 BadEnvironmentKeyIdInToken). Relative paths are read from the file's directory.
            """,
        examples: [
            "herald emulator --auth-key AuthKey_ABC123DEFG.p8 --key-id ABC123DEFG --team-id DEF123GHIJ",
            "herald emulator --plaintext --listen 127.0.0.1:8080 \\\n"
                + "    --auth-key k.p8 --key-id ABC123DEFG --team-id DEF123GHIJ",
        ]
    )
}

/// The command line of `herald emulator`.
public struct EmulatorOptions: Equatable, Sendable {
    public var host: String
    public var port: UInt16
    public var plaintext: Bool
    public var tlsCertificate: String?
    public var tlsKey: String?
    public var clientCA: String?
    public var dataDirectory: String
    /// Keep state in memory only, not in `dataDirectory`/emulator.sqlite.
    public var inMemory: Bool
    public var authKeyPath: String?
    public var keyID: String?
    public var teamID: String?
    public var configPath: String?
    public var topics: [String]
    public var production: Bool
    public var rateLimit: Int?
    public var idleTimeoutSeconds: Int?
    /// Broadcast channels per app (nil: APNs's 10,000).
    public var channelLimit: Int?
    /// Only registered device tokens are accepted.
    public var strictTokens = false
    /// Event loops (nil: ``defaultLoops``).
    public var loops: Int?
    /// Seconds a connection may stay without a request (nil: the emulator's 10; 0: never).
    public var firstRequestTimeoutSeconds: Int?
    /// Connections open at once (nil: the emulator's 10,000).
    public var maximumConnections: Int?
    /// Faults declared at once (nil: the emulator's 1,000).
    public var faultLimit: Int?
    /// Tokens marked unregistered through the control API (nil: the emulator's 100,000).
    public var unregisteredLimit: Int?
    /// The secret `/control/v1/` and `/device/v1/` require as a bearer token.
    public var controlToken: String?
    /// Where the web console listens (`--console`), if anywhere.
    public var console: ConsoleAddress?

    /// `--console HOST:PORT`.
    public struct ConsoleAddress: Equatable, Sendable {
        public var host: String
        public var port: UInt16

        public init(host: String, port: UInt16) {
            self.host = host
            self.port = port
        }
    }
    /// A file holding it (read when the command runs).
    public var controlTokenFile: String?

    /// One loop per core but one, at least one: an emulator shares its machine with the clients it
    /// serves (tests, CI), and its delivery log has a writer thread of its own. A loop for every core
    /// would leave those no core of their own, so the loops, the writer and the clients would take
    /// turns on the same cores and every turn would cost a switch.
    public static var defaultLoops: Int { max(1, EventLoopGroup.defaultLoopCount - 1) }

    init(_ parsed: ParsedArguments) throws(UsageError) {
        let listen = parsed.value("listen") ?? "127.0.0.1:2197"
        guard let colon = listen.lastIndex(of: ":"), let port = UInt16(listen[listen.index(after: colon)...]) else {
            throw .invalidValue(option: "--listen", value: listen, rule: "must be HOST:PORT, e.g. 127.0.0.1:2197")
        }
        var host = String(listen[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.host = host.isEmpty ? "127.0.0.1" : host
        self.port = port
        plaintext = parsed.flag("plaintext")
        tlsCertificate = parsed.value("tls-cert")
        tlsKey = parsed.value("tls-key")
        if (tlsCertificate == nil) != (tlsKey == nil) {
            throw .missingOption(tlsCertificate == nil ? "--tls-cert (with --tls-key)" : "--tls-key (with --tls-cert)")
        }
        if plaintext, tlsCertificate != nil {
            throw .invalidValue(option: "--plaintext", value: nil, rule: "cannot be combined with --tls-cert")
        }
        clientCA = parsed.value("client-ca")
        if plaintext, clientCA != nil {
            throw .invalidValue(
                option: "--plaintext", value: nil, rule: "cannot be combined with --client-ca (certificates need TLS)")
        }
        dataDirectory = parsed.value("data-dir") ?? "herald-data"
        inMemory = parsed.flag("in-memory")
        authKeyPath = parsed.value("auth-key")
        keyID = try CommandLineValues.identifier(parsed.value("key-id"), option: "--key-id")
        teamID = try CommandLineValues.identifier(parsed.value("team-id"), option: "--team-id")
        let given = [authKeyPath, keyID, teamID].filter { $0 != nil }.count
        if given > 0, given < 3 {
            throw .missingOption("--auth-key, --key-id and --team-id go together")
        }
        configPath = parsed.value("config")
        topics = try parsed.values("topic").map { (text: String) throws(UsageError) in
            try CommandLineValues.bundleID(text, option: "--topic")
        }
        production = parsed.flag("production")
        strictTokens = parsed.flag("strict-tokens")
        if let text = parsed.value("rate-limit") {
            guard let value = Int(text), value > 0 else {
                throw .invalidValue(option: "--rate-limit", value: text, rule: "must be a whole number above 0")
            }
            rateLimit = value
        }
        if let text = parsed.value("idle-timeout") {
            guard let value = Int(text), value > 0 else {
                throw .invalidValue(
                    option: "--idle-timeout", value: text, rule: "must be a whole number of seconds above 0")
            }
            idleTimeoutSeconds = value
        }
        if let text = parsed.value("loops") {
            guard let value = Int(text), (1...256).contains(value) else {
                throw .invalidValue(option: "--loops", value: text, rule: "must be a whole number from 1 to 256")
            }
            loops = value
        }
        func count(_ option: String, _ range: ClosedRange<Int>, _ rule: String) throws(UsageError) -> Int? {
            guard let text = parsed.value(option) else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw .invalidValue(option: "--" + option, value: text, rule: rule)
            }
            return value
        }
        firstRequestTimeoutSeconds = try count(
            "first-request-timeout", 0...86_400, "must be a whole number of seconds from 0 (never) to 86400")
        maximumConnections = try count("max-connections", 1...1_000_000, "must be a whole number from 1 to 1000000")
        faultLimit = try count("fault-limit", 0...1_000_000, "must be a whole number from 0 to 1000000")
        unregisteredLimit = try count(
            "unregistered-limit", 0...100_000_000, "must be a whole number from 0 to 100000000")
        if let text = parsed.value("console") {
            console = try Self.hostAndPort(text, option: "--console")
        }
        controlToken = parsed.value("control-token")
        controlTokenFile = parsed.value("control-token-file")
        if controlToken != nil, controlTokenFile != nil {
            throw .invalidValue(
                option: "--control-token", value: nil, rule: "cannot be combined with --control-token-file")
        }
        if let token = controlToken, let rule = Self.controlTokenProblem(token) {
            throw .invalidValue(option: "--control-token", value: nil, rule: rule)
        }
        if let text = parsed.value("channel-limit") {
            guard let value = Int(text), value >= 0 else {
                throw .invalidValue(option: "--channel-limit", value: text, rule: "must be a whole number, 0 or more")
            }
            channelLimit = value
        }
    }

    /// `HOST:PORT` (an IPv6 host in brackets), for `--console`.
    static func hostAndPort(_ text: String, option: String) throws(UsageError) -> ConsoleAddress {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw .invalidValue(option: option, value: text, rule: "must be HOST:PORT, e.g. 127.0.0.1:2198")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return ConsoleAddress(host: host.isEmpty ? "127.0.0.1" : host, port: port)
    }

    /// Why `token` cannot be a control token (it travels in a header: visible ASCII, no spaces), or nil.
    static func controlTokenProblem(_ token: String) -> String? {
        if token.isEmpty { return "must not be empty" }
        guard token.utf8.allSatisfy({ (0x21...0x7e).contains($0) }) else {
            return "must be visible ASCII without spaces (it is sent as 'authorization: bearer SECRET')"
        }
        return nil
    }
}
