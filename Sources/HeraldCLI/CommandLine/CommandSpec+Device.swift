extension CommandSpec {
    /// `herald device`: a simulated device on the emulator.
    public static let device = CommandSpec(
        name: "device",
        summary: "Act as a simulated device on the emulator, or run a device profile.",
        options: [
            OptionSpec(
                "endpoint", valueName: "URL",
                help: "The emulator: https://HOST[:PORT], or http:// for h2c (default https://localhost:2197). "
                    + "run: play the profile on this emulator when given on the command line; without it, offline "
                    + "on a virtual clock.",
                environmentVariable: "HERALD_ENDPOINT"),
            OptionSpec(
                "ca-file", valueName: "FILE",
                help: "Trust this CA (PEM) (default for an https endpoint on this machine: ./herald-data/ca.pem, "
                    + "the emulator's, when it exists).",
                environmentVariable: "HERALD_CA_FILE"),
            OptionSpec("topic", valueName: "BUNDLE_ID", help: "register: the app the device registers for."),
            OptionSpec(
                "environment", valueName: "ENV",
                help: "register: sandbox or production (default: the emulator's own)."),
            OptionSpec("listen", help: "register: listen right after registering, as 'listen' does."),
            OptionSpec("count", valueName: "N", help: "listen: stop after N notifications (default: until Ctrl-C)."),
            OptionSpec(
                "control-token", valueName: "SECRET",
                help: "The emulator's --control-token, sent as 'authorization: bearer SECRET' (default: none).",
                isSecret: true, environmentVariable: "HERALD_CONTROL_TOKEN"),
            OptionSpec(
                "emulator", valueName: "URL",
                help: "run: the same as --endpoint (the older name, kept as an alias)."),
            OptionSpec(
                "until", valueName: "WHEN",
                help: "run: after the script, 'end' (stop, the default), 'interrupt' (until Ctrl-C) or a time "
                    + "to keep receiving (30s, 5m)."),
            OptionSpec("json", help: "run: the timeline as JSON lines instead of text."),
        ],
        positionals: [
            PositionalSpec(
                "ACTION", help: "register, listen, unregister or run.",
                choices: ["register", "listen", "unregister", "run"]),
            PositionalSpec(
                "TOKEN|PROFILE", help: "listen, unregister: the device's token; run: the profile (JSON).",
                isOptional: true),
        ],
        discussion: """
            'register' prints the new device token. 'listen' holds the device's stream open and prints \
            each notification as it arrives, one JSON object per line (apns-id, token, topic, push-type, \
            priority, collapse-id, expiration, payload, received-at); stored notifications come first. \
            'unregister' makes the emulator answer pushes to the token with 410 Unregistered. The paths \
            are in docs/EMULATOR.md, "Devices". 'run' plays a device profile (docs/DEVICE.md, "Device \
            profiles": the app, the user's answers and taps, the service extension, the script) on the device \
            model and prints its timeline, each entry with the rule that decided it; with --endpoint (or its \
            alias --emulator) the app registers on that emulator and what is sent to its tokens reaches the model. \
            HERALD_ENDPOINT does not make a run go to an emulator; only the command line does.
            """,
        examples: [
            "herald device register --topic com.example.app --ca-file herald-data/ca.pem",
            "herald device listen 3f2a...9c --ca-file herald-data/ca.pem --count 1",
            "herald device register --endpoint http://127.0.0.1:8080 --topic com.example.app --listen",
            "herald device run Examples/devices/reply.json",
            "herald device run profile.json --endpoint http://127.0.0.1:8080 --until 30s --json",
        ]
    )
}

/// The command line of `herald device`.
public struct DeviceOptions: Equatable, Sendable {
    public enum Action: Equatable, Sendable {
        /// Register for `topic` (in `environment`, nil: the emulator's); then listen if `listen`.
        case register(topic: String, environment: String?, listen: Bool)
        case listen(token: String)
        case unregister(token: String)
        /// Play the profile at `profile` (on `emulator`, or offline when nil), printing the timeline.
        case run(profile: String, emulator: String?, until: DeviceRunUntil, json: Bool)
    }

    public var action: Action
    public var endpoint: String
    public var caFile: String?
    /// Stop listening after this many notifications; nil listens until interrupted.
    public var count: Int?
    /// The emulator's control token.
    public var controlToken: String?

    public init(
        action: Action, endpoint: String = "https://localhost:2197", caFile: String? = nil, count: Int? = nil,
        controlToken: String? = nil
    ) {
        self.action = action
        self.endpoint = endpoint
        self.caFile = caFile
        self.count = count
        self.controlToken = controlToken
    }

    init(_ parsed: ParsedArguments) throws(UsageError) {
        endpoint = parsed.value("endpoint") ?? "https://localhost:2197"
        try SendOptions.checkEndpoint(endpoint)
        caFile = parsed.value("ca-file")
        controlToken = parsed.value("control-token")
        if let text = parsed.value("count") {
            guard let value = Int(text), value > 0 else {
                throw .invalidValue(option: "--count", value: text, rule: "must be a whole number above 0")
            }
            count = value
        }
        let token = parsed.positionals.count > 1 ? parsed.positionals[1] : nil
        switch parsed.positionals.first ?? "" {
        case "register":
            if let token { throw .unexpectedArgument(token) }
            guard
                let topic = try parsed.value("topic").map({ (text: String) throws(UsageError) in
                    try CommandLineValues.bundleID(text, option: "--topic")
                })
            else { throw .missingOption("--topic (the app to register for)") }
            let environment = parsed.value("environment")
            if let environment, environment != "sandbox", environment != "production" {
                throw .invalidValue(option: "--environment", value: environment, rule: "must be sandbox or production")
            }
            action = .register(topic: topic, environment: environment, listen: parsed.flag("listen"))
        case "listen", "unregister":
            guard let token else { throw .missingArgument("TOKEN") }
            guard !token.isEmpty, token.utf8.count % 2 == 0, token.allSatisfy(\.isHexDigit) else {
                throw .invalidValue(
                    option: "TOKEN", value: token, rule: "must be hexadecimal with an even number of digits")
            }
            action = parsed.positionals[0] == "listen" ? .listen(token: token) : .unregister(token: token)
        case "run":
            guard let profile = token else { throw .missingArgument("PROFILE") }
            // --endpoint from HERALD_ENDPOINT does not count: a variable set for other commands would
            // otherwise turn every offline run into one on an emulator.
            let given = [parsed.commandLineValue("endpoint"), parsed.value("emulator")].compactMap { $0 }
            if given.count == 2, given[0] != given[1] {
                throw .invalidValue(
                    option: "--emulator", value: given[1], rule: "is an alias of --endpoint; give one of them")
            }
            let emulator = given.first
            if let emulator { try SendOptions.checkEndpoint(emulator) }
            action = .run(
                profile: profile, emulator: emulator, until: try DeviceRunUntil(parsing: parsed.value("until")),
                json: parsed.flag("json"))
        case let other:
            throw .invalidValue(option: "ACTION", value: other, rule: "must be register, listen, unregister or run")
        }
        for option in ["emulator", "until"] where parsed.value(option) != nil {
            guard case .run = action else {
                throw .invalidValue(option: "--\(option)", value: nil, rule: "only applies to run")
            }
        }
        if parsed.flag("json") {
            guard case .run = action else {
                throw .invalidValue(option: "--json", value: nil, rule: "only applies to run")
            }
        }
        for option in ["topic", "environment"] where parsed.value(option) != nil {
            guard case .register = action else {
                throw .invalidValue(option: "--\(option)", value: nil, rule: "only applies to register")
            }
        }
        if parsed.flag("listen") {
            guard case .register = action else {
                throw .invalidValue(option: "--listen", value: nil, rule: "only applies to register")
            }
        }
        if count != nil {
            switch action {
            case .listen, .register(_, _, listen: true): break
            case .register, .unregister, .run:
                throw .invalidValue(
                    option: "--count", value: nil, rule: "only applies to listen (or register --listen)")
            }
        }
    }
}

/// When `herald device run` stops once its script is over.
public enum DeviceRunUntil: Equatable, Sendable {
    /// At once (the default).
    case end
    /// At Ctrl-C.
    case interrupt
    /// After this many more seconds of receiving.
    case seconds(Double)

    /// `end`, `interrupt`, or a duration: `30s`, `5m`, `1h`, or plain seconds.
    init(parsing text: String?) throws(UsageError) {
        guard let text else {
            self = .end
            return
        }
        switch text {
        case "end": self = .end
        case "interrupt": self = .interrupt
        default:
            let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
            var value = Double(text)
            if let (suffix, factor) = units.first(where: { text.hasSuffix($0.0) }),
                let number = Double(text.dropLast(suffix.count))
            {
                value = number * factor
            }
            guard let value, value.isFinite, value >= 0 else {
                throw .invalidValue(
                    option: "--until", value: text, rule: "must be end, interrupt or a duration such as 30s or 5m")
            }
            self = .seconds(value)
        }
    }
}
