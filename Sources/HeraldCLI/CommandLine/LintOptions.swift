/// The command line of `herald lint`.
///
/// Header values stay as written: judging them (a priority of `7`, a malformed UUID) is the linter's
/// job, which reports findings; the parser only rejects command lines it cannot read.
public struct LintOptions: Equatable, Sendable {
    /// The payload file (an NDJSON requests file with `requests`), or `-` for standard input.
    public var input: String
    /// `--requests`: the input is NDJSON requests, one a line, as `herald send --requests` reads them.
    public var requests: Bool
    /// `--type`; `nil` means infer the push type from the payload.
    public var pushType: String?
    public var topic: String?
    public var priority: String?
    public var collapseID: String?
    public var expiration: String?
    /// The device token, in hexadecimal.
    public var token: String?
    public var apnsID: String?
    /// The input is a Simulator `.apns` file rather than a bare payload.
    public var simulator: Bool
    /// The payload is for a broadcast channel.
    public var broadcast: Bool
    /// Print findings as JSON.
    public var json: Bool

    public init(
        input: String,
        pushType: String? = nil,
        topic: String? = nil,
        priority: String? = nil,
        collapseID: String? = nil,
        expiration: String? = nil,
        token: String? = nil,
        apnsID: String? = nil,
        simulator: Bool = false,
        broadcast: Bool = false,
        json: Bool = false,
        requests: Bool = false
    ) {
        self.input = input
        self.requests = requests
        self.pushType = pushType
        self.topic = topic
        self.priority = priority
        self.collapseID = collapseID
        self.expiration = expiration
        self.token = token
        self.apnsID = apnsID
        self.simulator = simulator
        self.broadcast = broadcast
        self.json = json
    }

    /// Reads the options from arguments parsed against `CommandSpec.lint`.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        let requests = parsed.value("requests")
        if requests != nil, let file = parsed.positionals.first { throw .unexpectedArgument(file) }
        let input: String
        if let requests { input = requests } else { input = try parsed.positional(0, named: "FILE") }
        if parsed.positionals.count > 1 { throw .unexpectedArgument(parsed.positionals[1]) }
        self.init(
            input: input,
            pushType: parsed.value("type"),
            topic: parsed.value("topic"),
            priority: parsed.value("priority"),
            collapseID: parsed.value("collapse-id"),
            expiration: parsed.value("expiration"),
            token: parsed.value("token"),
            apnsID: parsed.value("apns-id"),
            simulator: parsed.flag("simulator"),
            broadcast: parsed.flag("broadcast"),
            json: parsed.flag("json"),
            requests: requests != nil
        )
    }
}
