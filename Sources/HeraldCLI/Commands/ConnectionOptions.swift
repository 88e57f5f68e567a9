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
            "endpoint", valueName: "URL", help: "Send to another server: https://HOST[:PORT], or http:// for h2c."),
        OptionSpec("port-2197", help: "Use Apple's alternative port 2197 instead of 443."),
        OptionSpec("ca-file", valueName: "FILE", help: "Trust this CA (PEM) instead of the system's."),
        OptionSpec("proxy", valueName: "URL", help: "An HTTP CONNECT proxy, http://HOST:PORT (default: $HTTPS_PROXY)."),
    ]
}

extension SendOptions {
    static func credentials(_ parsed: ParsedArguments) throws(UsageError) -> Credentials {
        let token = ["auth-key", "key-id", "team-id"].filter { parsed.value($0) != nil }
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
            throw .missingOption("--auth-key with --key-id and --team-id, or --cert")
        }
        guard let keyID = parsed.value("key-id") else { throw .missingOption("--key-id (or HERALD_KEY_ID)") }
        guard let teamID = parsed.value("team-id") else { throw .missingOption("--team-id (or HERALD_TEAM_ID)") }
        return .token(authKeyPath: authKey, keyID: keyID, teamID: teamID)
    }

    static func destination(_ parsed: ParsedArguments) throws(UsageError) -> Destination {
        let chosen =
            ["sandbox", "production"].filter(parsed.flag) + (parsed.value("endpoint") != nil ? ["endpoint"] : [])
        guard chosen.count <= 1 else {
            throw .invalidValue(option: "--\(chosen[1])", value: nil, rule: "cannot be combined with --\(chosen[0])")
        }
        if parsed.flag("production") { return .production }
        if let url = parsed.value("endpoint") { return .endpoint(url) }
        return .sandbox
    }
}
