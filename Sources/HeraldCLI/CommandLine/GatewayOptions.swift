import Gateway

/// The command line of `herald gateway`: serve, or one key action.
public struct GatewayOptions: Equatable, Sendable {
    public enum Action: Equatable, Sendable {
        case serve(Serve)
        /// `key create`: `bundleID` nil serves every app.
        case createKey(scope: String, name: String?, bundleID: String?)
        case listKeys(json: Bool)
        case revokeKey(id: String)
        /// `devices import FILE` (`-`: standard input).
        case importDevices(ImportDevices)
    }

    /// What serving needs beyond the data directory.
    public struct Serve: Equatable, Sendable {
        public var host: String
        public var port: UInt16
        /// The one app the flags configure (nil: --config alone), with its credentials and destination.
        public var topic: String?
        public var credentials: SendOptions.Credentials
        public var destination: SendOptions.Destination
        public var alternativePort: Bool
        public var caFile: String?
        public var proxy: String?
        public var configPath: String?
        public var tlsCertificate: String?
        public var tlsKey: String?
        /// --claim-batch, --send-concurrency, --lease (seconds): nil keeps `DeliveryEngineConfiguration`'s default.
        public var claimBatch: Int? = nil
        public var sendConcurrency: Int? = nil
        public var leaseSeconds: Int? = nil
    }

    /// --data-dir: SQLite's file and the first admin key (with --database: the admin key only).
    public var dataDirectory: String?
    /// --database or HERALD_DATABASE_URL: the state in PostgreSQL.
    public var database: GatewayDatabase?
    public var action: Action

    /// The options of serving (all but --data-dir and the key options).
    static let serveOnly =
        ["listen", "topic", "config", "tls-cert", "tls-key", "claim-batch", "send-concurrency", "lease"]
        + OptionSpec.credentialOptions.map(\.name) + OptionSpec.destinationOptions.map(\.name)
    static let keyOptions = ["scope", "name", "json", "strict"]

    init(_ parsed: ParsedArguments) throws(UsageError) {
        if let text = parsed.value("database") {
            do {
                database = try GatewayDatabase(text)
            } catch {
                throw .invalidValue(option: "--database", value: nil, rule: error.message)
            }
        }
        let directory = parsed.value("data-dir")
        if directory?.isEmpty ?? false {
            throw .invalidValue(option: "--data-dir", value: nil, rule: "is empty; give a directory")
        }
        guard directory != nil || database != nil else {
            throw .missingOption(
                "--data-dir (where the gateway keeps its store and admin key), or --database (a PostgreSQL URL)")
        }
        dataDirectory = directory
        // The key and import commands use one store: the database's, or the directory's.
        if parsed.positionals.first != nil, database != nil, Self.typed("data-dir", parsed) {
            throw .invalidValue(
                option: "--data-dir", value: nil,
                rule: "cannot be given with --database here: the keys and devices are in the database")
        }
        guard let first = parsed.positionals.first else {
            action = .serve(try Self.serve(parsed))
            return
        }
        if first == "devices" {
            action = .importDevices(try Self.importDevices(parsed))
            return
        }
        guard first == "key" else {
            throw .invalidValue(
                option: "key", value: first, rule: "must be a subcommand: key create|list|revoke or devices import")
        }
        // Flags the environment may fill (HERALD_AUTH_KEY ...) are only refused when typed.
        if let option = Self.serveOnly.first(where: { $0 != "topic" && Self.typed($0, parsed) }) {
            throw .invalidValue(option: "--\(option)", value: nil, rule: "applies to serving, not to key commands")
        }
        let id = parsed.positionals.count > 2 ? parsed.positionals[2] : nil
        switch parsed.positionals.count > 1 ? parsed.positionals[1] : "" {
        case "create":
            if let id { throw .unexpectedArgument(id) }
            let scope = parsed.value("scope") ?? "send"
            guard ["admin", "send", "register"].contains(scope) else {
                throw .invalidValue(option: "--scope", value: scope, rule: "must be admin, send or register")
            }
            let bundleID = try parsed.value("topic").map { (text: String) throws(UsageError) in
                try CommandLineValues.bundleID(text, option: "--topic")
            }
            if scope == "admin", bundleID != nil {
                throw .invalidValue(option: "--topic", value: nil, rule: "cannot limit an admin key to one app")
            }
            action = .createKey(scope: scope, name: parsed.value("name"), bundleID: bundleID)
        case "list":
            if let id { throw .unexpectedArgument(id) }
            action = .listKeys(json: parsed.flag("json"))
        case "revoke":
            guard let id else { throw .missingArgument("ID (the key's id, from 'herald gateway key list')") }
            action = .revokeKey(id: id)
        case "":
            throw .missingArgument("ACTION (create, list or revoke)")
        case let other:
            throw .invalidValue(option: "ACTION", value: other, rule: "must be create, list or revoke")
        }
        let allowed: [String] =
            switch action {
            case .createKey: ["scope", "name", "topic"]
            case .listKeys: ["json"]
            default: []
            }
        for option in Self.keyOptions + ["topic"] where !allowed.contains(option) {
            if Self.typed(option, parsed) {
                throw .invalidValue(option: "--\(option)", value: nil, rule: "does not apply to this key command")
            }
        }
    }

    /// Whether `--name` was typed (an environment variable's value does not count).
    static func typed(_ name: String, _ parsed: ParsedArguments) -> Bool {
        parsed.commandLineValue(name) != nil || parsed.flag(name)
    }

    private static func serve(_ parsed: ParsedArguments) throws(UsageError) -> Serve {
        if let option = keyOptions.first(where: { typed($0, parsed) }) {
            throw .invalidValue(option: "--\(option)", value: nil, rule: "applies to 'herald gateway key' only")
        }
        let listen = parsed.value("listen") ?? "127.0.0.1:8080"
        guard let colon = listen.lastIndex(of: ":"), let port = UInt16(listen[listen.index(after: colon)...]) else {
            throw .invalidValue(option: "--listen", value: listen, rule: "must be HOST:PORT, e.g. 127.0.0.1:8080")
        }
        var host = String(listen[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let tlsCertificate = parsed.value("tls-cert")
        let tlsKey = parsed.value("tls-key")
        if (tlsCertificate == nil) != (tlsKey == nil) {
            throw .missingOption(tlsCertificate == nil ? "--tls-cert (with --tls-key)" : "--tls-key (with --tls-cert)")
        }
        let topic = try parsed.value("topic").map { (text: String) throws(UsageError) in
            try CommandLineValues.bundleID(text, option: "--topic")
        }
        let configPath = parsed.value("config")
        var serve = Serve(
            host: host.isEmpty ? "127.0.0.1" : host, port: port, topic: topic, credentials: .none,
            destination: .sandbox, alternativePort: false, caFile: nil, proxy: nil, configPath: configPath,
            tlsCertificate: tlsCertificate, tlsKey: tlsKey)
        func count(_ option: String, _ range: ClosedRange<Int>, _ rule: String) throws(UsageError) -> Int? {
            guard let text = parsed.value(option) else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw .invalidValue(option: "--" + option, value: text, rule: rule)
            }
            return value
        }
        serve.claimBatch = try count("claim-batch", 1...10_000, "must be a whole number from 1 to 10000")
        serve.sendConcurrency = try count("send-concurrency", 1...100_000, "must be a whole number from 1 to 100000")
        serve.leaseSeconds = try count("lease", 1...86_400, "must be a whole number of seconds from 1 to 86400")
        guard topic != nil else {
            // Without --topic the app flags configure nothing; typed ones are a mistake worth saying.
            let appFlags = (OptionSpec.credentialOptions + OptionSpec.destinationOptions).map(\.name)
            if let option = appFlags.first(where: { typed($0, parsed) }) {
                throw .invalidValue(
                    option: "--\(option)", value: nil,
                    rule: "applies to the --topic app; give --topic, or configure the apps in --config")
            }
            guard configPath != nil else {
                throw .missingOption("--topic with its credentials, or --config (the apps to serve)")
            }
            return serve
        }
        serve.credentials = try SendOptions.credentials(parsed)
        serve.destination = try SendOptions.destination(parsed)
        serve.alternativePort = parsed.flag("port-2197")
        serve.caFile = parsed.value("ca-file")
        serve.proxy = parsed.value("proxy")
        return serve
    }
}
