/// The command line of `herald send`, checked for shape (which options go together, numbers are
/// numbers); header values stay raw for the linter, files are not read here.
public struct SendOptions: Equatable, Sendable {
    /// How the provider proves who it is.
    public enum Credentials: Equatable, Sendable {
        case token(authKeyPath: String, keyID: String, teamID: String)
        /// A .p12 (`keyPath` nil) or a PEM certificate with its PEM key.
        case certificate(path: String, keyPath: String?, password: String?)
        /// None given: allowed for --dry-run only, which sends nothing.
        case none
    }

    /// Where notifications go.
    public enum Destination: Equatable, Sendable {
        case sandbox
        case production
        case endpoint(String)
    }

    /// Where the payload comes from.
    public enum PayloadSource: Equatable, Sendable {
        /// A file, or `-` for standard input.
        case input(String)
        /// Built from --alert/--title/--body/--badge/--sound.
        case quick(title: String?, body: String?, badge: Int?, sound: String?)
        /// Bulk mode: each NDJSON request carries its own payload.
        case requests(String)
    }

    public var credentials: Credentials
    public var destination: Destination
    public var payload: PayloadSource
    public var topic: String?
    public var tokens: [String]
    public var tokensFile: String?
    public var pushType: String?
    public var priority: String?
    public var expiration: String?
    public var collapseID: String?
    public var apnsID: String?
    public var alternativePort: Bool
    public var caFile: String?
    public var proxy: String?
    public var connections: Int?
    public var concurrency: Int?
    public var timeoutSeconds: Double?
    public var retries: Int?
    public var dryRun: Bool
    public var force: Bool
    public var json: Bool
    public var quiet: Bool
    /// Broadcast to this channel instead of device tokens (`topic` is then the bundle id).
    public var channel: String?
    /// Bulk mode: lines of the requests file to skip (a resumed run), numbers kept.
    public var skipLines: Int?

    public init(
        credentials: Credentials, destination: Destination = .sandbox, payload: PayloadSource, topic: String? = nil,
        tokens: [String] = [], tokensFile: String? = nil, pushType: String? = nil, priority: String? = nil,
        expiration: String? = nil, collapseID: String? = nil, apnsID: String? = nil, alternativePort: Bool = false,
        caFile: String? = nil, proxy: String? = nil, connections: Int? = nil, concurrency: Int? = nil,
        timeoutSeconds: Double? = nil, retries: Int? = nil, dryRun: Bool = false, force: Bool = false,
        json: Bool = false, quiet: Bool = false, channel: String? = nil, skipLines: Int? = nil
    ) {
        self.channel = channel
        self.skipLines = skipLines
        self.credentials = credentials
        self.destination = destination
        self.payload = payload
        self.topic = topic
        self.tokens = tokens
        self.tokensFile = tokensFile
        self.pushType = pushType
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
        self.apnsID = apnsID
        self.alternativePort = alternativePort
        self.caFile = caFile
        self.proxy = proxy
        self.connections = connections
        self.concurrency = concurrency
        self.timeoutSeconds = timeoutSeconds
        self.retries = retries
        self.dryRun = dryRun
        self.force = force
        self.json = json
        self.quiet = quiet
    }

    init(_ parsed: ParsedArguments) throws(UsageError) {
        self.init(
            credentials: try Self.credentials(parsed, optional: parsed.flag("dry-run")),
            destination: try Self.destination(parsed),
            payload: try Self.payloadSource(parsed), topic: parsed.value("topic"),
            tokens: try parsed.values("token").map { (text: String) throws(UsageError) in
                try CommandLineValues.token(text, option: "--token")
            },
            tokensFile: parsed.value("tokens-file"), pushType: parsed.value("type"), priority: parsed.value("priority"),
            expiration: parsed.value("expiration"), collapseID: parsed.value("collapse-id"),
            apnsID: parsed.value("apns-id"), alternativePort: parsed.flag("port-2197"), caFile: parsed.value("ca-file"),
            proxy: parsed.value("proxy"),
            connections: try Self.count(parsed, "connections", in: 1...64),
            concurrency: try Self.count(parsed, "concurrency", in: 1...100_000),
            timeoutSeconds: try Self.seconds(parsed, "timeout"), retries: try Self.count(parsed, "retries", in: 0...10),
            dryRun: parsed.flag("dry-run"), force: parsed.flag("force"), json: parsed.flag("json"),
            quiet: parsed.flag("quiet"), channel: parsed.value("channel"),
            skipLines: try Self.count(parsed, "skip-lines", in: 0...1_000_000_000_000))
        if skipLines != nil {
            guard case .requests = payload else {
                throw .invalidValue(option: "--skip-lines", value: nil, rule: "only goes with --requests")
            }
        }
        if channel != nil {
            if case .requests = payload {
                throw .invalidValue(option: "--channel", value: nil, rule: "cannot be combined with --requests")
            }
            if !tokens.isEmpty || tokensFile != nil {
                throw .invalidValue(
                    option: "--channel", value: nil,
                    rule: "broadcasts go to a channel, not to devices; drop --token and --tokens-file")
            }
            if collapseID != nil {
                throw .invalidValue(option: "--collapse-id", value: nil, rule: "cannot be combined with --channel")
            }
            if topic == nil { throw .missingOption("--topic (the app's bundle id, for --channel)") }
        } else if case .requests = payload {
            if !tokens.isEmpty || tokensFile != nil {
                throw .invalidValue(option: "--requests", value: nil, rule: "carries its own tokens; drop --token and --tokens-file")
            }
        } else if tokens.isEmpty && tokensFile == nil {
            throw .missingOption("--token (or --tokens-file, --requests or --channel)")
        } else if topic == nil, case .token = credentials {
            // APNs would answer 400 MissingTopic for every notification.
            throw .missingOption("--topic (the app's bundle id: token auth needs apns-topic)")
        }
    }

    private static func payloadSource(_ parsed: ParsedArguments) throws(UsageError) -> PayloadSource {
        let quick = ["alert", "title", "body", "badge", "sound"].filter { parsed.value($0) != nil }
        let file = parsed.positionals.first
        if parsed.positionals.count > 1 { throw .unexpectedArgument(parsed.positionals[1]) }
        if let requests = parsed.value("requests") {
            if let file { throw .unexpectedArgument(file) }
            if let flag = quick.first {
                throw .invalidValue(option: "--\(flag)", value: nil, rule: "cannot be combined with --requests")
            }
            return .requests(requests)
        }
        if let file {
            if let flag = quick.first {
                throw .invalidValue(option: "--\(flag)", value: nil, rule: "cannot be combined with a PAYLOAD file")
            }
            return .input(file)
        }
        guard !quick.isEmpty else { throw .missingArgument("PAYLOAD (or --alert/--title/--body, or --requests)") }
        if parsed.value("alert") != nil, parsed.value("body") != nil {
            throw .invalidValue(option: "--body", value: nil, rule: "cannot be combined with --alert (they are the same)")
        }
        var badge: Int?
        if let text = parsed.value("badge") {
            guard let value = Int(text), value >= 0 else {
                throw .invalidValue(option: "--badge", value: text, rule: "must be a whole number, 0 or more")
            }
            badge = value
        }
        return .quick(
            title: parsed.value("title"), body: parsed.value("body") ?? parsed.value("alert"), badge: badge,
            sound: parsed.value("sound"))
    }

    private static func count(_ parsed: ParsedArguments, _ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = parsed.value(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw .invalidValue(option: "--\(name)", value: text, rule: "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    private static func seconds(_ parsed: ParsedArguments, _ name: String) throws(UsageError) -> Double? {
        guard let text = parsed.value(name) else { return nil }
        guard let value = Double(text), value.isFinite, value > 0, value <= 3600 else {
            throw .invalidValue(option: "--\(name)", value: text, rule: "must be seconds, more than 0 and at most 3600")
        }
        return value
    }
}
