import Gateway

extension GatewayOptions {
    /// `herald gateway devices import FILE`: where the lines come from and the defaults of a line.
    public struct ImportDevices: Equatable, Sendable {
        /// `-`: standard input.
        public var path: String
        /// For lines without `bundle-id`.
        public var bundleID: String?
        /// For lines without `environment`.
        public var environment: Environment?
        public var strict: Bool
    }

    static func importDevices(_ parsed: ParsedArguments) throws(UsageError) -> ImportDevices {
        let positionals = parsed.positionals
        guard positionals.count > 1 else { throw .missingArgument("ACTION (import)") }
        guard positionals[1] == "import" else {
            throw .invalidValue(option: "ACTION", value: positionals[1], rule: "must be import")
        }
        guard positionals.count > 2 else {
            throw .missingArgument("FILE (the NDJSON file of devices, or - for standard input)")
        }
        let allowed = ["topic", "sandbox", "production", "strict"]
        // Flags the environment may fill (HERALD_ENDPOINT ...) are only refused when typed.
        for option in serveOnly + keyOptions where !allowed.contains(option) && typed(option, parsed) {
            throw .invalidValue(option: "--\(option)", value: nil, rule: "does not apply to devices import")
        }
        if parsed.flag("sandbox"), parsed.flag("production") {
            throw .invalidValue(option: "--production", value: nil, rule: "cannot be given with --sandbox")
        }
        let bundleID = try parsed.value("topic").map { (text: String) throws(UsageError) in
            try CommandLineValues.bundleID(text, option: "--topic")
        }
        let environment: Environment? =
            parsed.flag("production") ? .production : parsed.flag("sandbox") ? .sandbox : nil
        return ImportDevices(
            path: positionals[2], bundleID: bundleID, environment: environment, strict: parsed.flag("strict"))
    }
}
