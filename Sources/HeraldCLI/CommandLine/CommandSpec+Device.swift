extension CommandSpec {
    /// `herald device`: a simulated device on the emulator.
    public static let device = CommandSpec(
        name: "device",
        summary: "Act as a simulated device on the emulator: register, listen, unregister.",
        options: [
            OptionSpec(
                "endpoint", valueName: "URL",
                help: "The emulator: https://HOST[:PORT], or http:// for h2c (default https://localhost:2197).",
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
        ],
        positionals: [
            PositionalSpec("ACTION", help: "register, listen or unregister."),
            PositionalSpec("TOKEN", help: "listen, unregister: the device's token.", isOptional: true),
        ],
        discussion: """
            'register' prints the new device token. 'listen' holds the device's stream open and prints \
            each notification as it arrives, one JSON object per line (apns-id, token, topic, push-type, \
            priority, collapse-id, expiration, payload, received-at); stored notifications come first. \
            'unregister' makes the emulator answer pushes to the token with 410 Unregistered. The paths \
            are in docs/EMULATOR.md, "Devices".
            """,
        examples: [
            "herald device register --topic com.example.app --ca-file herald-data/ca.pem",
            "herald device listen 3f2a...9c --ca-file herald-data/ca.pem --count 1",
            "herald device register --endpoint http://127.0.0.1:8080 --topic com.example.app --listen",
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
    }

    public var action: Action
    public var endpoint: String
    public var caFile: String?
    /// Stop listening after this many notifications; nil listens until interrupted.
    public var count: Int?

    public init(action: Action, endpoint: String = "https://localhost:2197", caFile: String? = nil, count: Int? = nil) {
        self.action = action
        self.endpoint = endpoint
        self.caFile = caFile
        self.count = count
    }

    init(_ parsed: ParsedArguments) throws(UsageError) {
        endpoint = parsed.value("endpoint") ?? "https://localhost:2197"
        try SendOptions.checkEndpoint(endpoint)
        caFile = parsed.value("ca-file")
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
            guard let topic = try parsed.value("topic").map({ (text: String) throws(UsageError) in
                try CommandLineValues.bundleID(text, option: "--topic")
            }) else { throw .missingOption("--topic (the app to register for)") }
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
        case let other:
            throw .invalidValue(option: "ACTION", value: other, rule: "must be register, listen or unregister")
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
            case .register, .unregister:
                throw .invalidValue(
                    option: "--count", value: nil, rule: "only applies to listen (or register --listen)")
            }
        }
    }
}
