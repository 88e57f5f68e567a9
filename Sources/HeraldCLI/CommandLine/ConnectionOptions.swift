// What `herald send` and `herald channels` share: the credential and destination options (one
// spec, one parser), so both commands spell, document and check them the same way.

extension OptionSpec {
    /// Token auth (--auth-key, --key-id, --team-id) or certificate auth (--cert, --cert-key,
    /// --cert-password).
    static let credentialOptions: [OptionSpec] = [
        OptionSpec(
            "auth-key", valueName: "FILE", help: "Token auth: the .p8 key from Apple Developer.", isSecret: true,
            environmentVariable: "HERALD_AUTH_KEY"),
        OptionSpec(
            "key-id", valueName: "KEY_ID", help: "Token auth: the key's 10-character ID.",
            environmentVariable: "HERALD_KEY_ID"),
        OptionSpec(
            "team-id", valueName: "TEAM_ID", help: "Token auth: your 10-character team ID.",
            environmentVariable: "HERALD_TEAM_ID"),
        OptionSpec(
            "cert", valueName: "FILE", help: "Certificate auth: a .p12 file, or a PEM certificate (with --cert-key)."),
        OptionSpec("cert-key", valueName: "FILE", help: "The PEM private key for a PEM --cert.", isSecret: true),
        OptionSpec(
            "cert-password", valueName: "PASSWORD", help: "The .p12 (or encrypted key) password.", isSecret: true,
            environmentVariable: "HERALD_CERT_PASSWORD"),
    ]

    /// Where requests go (--sandbox, --production, --endpoint, --port-2197) and how (--ca-file, --proxy).
    static let destinationOptions: [OptionSpec] = [
        OptionSpec("sandbox", help: "Send to api.sandbox.push.apple.com (the default)."),
        OptionSpec("production", help: "Send to api.push.apple.com."),
        OptionSpec(
            "endpoint", valueName: "URL", help: "Send to another server: https://HOST[:PORT], or http:// for h2c.",
            environmentVariable: "HERALD_ENDPOINT"),
        OptionSpec("port-2197", help: "Use Apple's alternative port 2197 instead of 443."),
        OptionSpec(
            "ca-file", valueName: "FILE",
            help: "Trust this CA (PEM) instead of the system's (default for an https endpoint on this machine: "
                + "./herald-data/ca.pem, the emulator's, when it exists).",
            environmentVariable: "HERALD_CA_FILE"),
        OptionSpec("proxy", valueName: "URL", help: "An HTTP CONNECT proxy, http://HOST:PORT (default: $HTTPS_PROXY)."),
    ]
}

extension SendOptions {
    /// The credentials the command line (then the environment) gives. `optional`: none at all is
    /// `.none` (a dry run), not an error.
    static func credentials(_ parsed: ParsedArguments, optional: Bool = false) throws(UsageError) -> Credentials {
        // Flags beat the environment: with --cert on the command line, HERALD_AUTH_KEY is not a conflict.
        let token = ["auth-key", "key-id", "team-id"].filter { parsed.commandLineValue($0) != nil }
        if let cert = parsed.value("cert") {
            if let first = token.first(where: { $0 == "auth-key" }) {
                throw .invalidValue(
                    option: "--cert", value: nil,
                    rule: "cannot be combined with --\(first); choose token or certificate auth")
            }
            return .certificate(path: cert, keyPath: parsed.value("cert-key"), password: parsed.value("cert-password"))
        }
        if parsed.value("cert-key") != nil {
            throw .missingOption("--cert (--cert-key is the key of a PEM --cert)")
        }
        guard let authKey = parsed.value("auth-key") else {
            if optional { return .none }
            throw .missingOption("--auth-key with --key-id and --team-id, or --cert")
        }
        guard let keyID = try CommandLineValues.identifier(parsed.value("key-id"), option: "--key-id") else {
            throw .missingOption("--key-id (or HERALD_KEY_ID)")
        }
        guard let teamID = try CommandLineValues.identifier(parsed.value("team-id"), option: "--team-id") else {
            throw .missingOption("--team-id (or HERALD_TEAM_ID)")
        }
        return .token(authKeyPath: authKey, keyID: keyID, teamID: teamID)
    }

    static func destination(_ parsed: ParsedArguments) throws(UsageError) -> Destination {
        let flags = ["sandbox", "production"].filter(parsed.flag)
        // HERALD_ENDPOINT fills in only when no flag chose a destination.
        let endpoint = flags.isEmpty ? parsed.value("endpoint") : parsed.commandLineValue("endpoint")
        let chosen = flags + (endpoint != nil ? ["endpoint"] : [])
        guard chosen.count <= 1 else {
            throw .invalidValue(option: "--\(chosen[1])", value: nil, rule: "cannot be combined with --\(chosen[0])")
        }
        if parsed.flag("production") { return .production }
        if let endpoint {
            try checkEndpoint(endpoint)
            if parsed.flag("port-2197") {
                throw .invalidValue(
                    option: "--port-2197", value: nil, rule: "cannot be combined with --endpoint; give the port in its URL")
            }
            return .endpoint(endpoint)
        }
        return .sandbox
    }

    /// An endpoint URL names its scheme: `localhost:2197` would otherwise read as a scheme.
    static func checkEndpoint(_ url: String) throws(UsageError) {
        guard !url.hasPrefix("https://"), !url.hasPrefix("http://") else { return }
        throw .invalidValue(
            option: "--endpoint", value: url, rule: "needs a scheme: https://\(url) (or http://\(url) for h2c)")
    }
}
