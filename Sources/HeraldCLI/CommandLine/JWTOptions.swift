/// The command line of `herald jwt`.
public struct JWTOptions: Equatable, Sendable {
    /// The `.p8` signing key file. Only the path is known here; the parser never reads it.
    public var authKeyPath: String
    public var keyID: String
    public var teamID: String
    /// The `iat` claim in seconds since 1970; `nil` means now.
    public var issuedAt: Int?

    public init(authKeyPath: String, keyID: String, teamID: String, issuedAt: Int? = nil) {
        self.authKeyPath = authKeyPath
        self.keyID = keyID
        self.teamID = teamID
        self.issuedAt = issuedAt
    }

    /// Reads the options from arguments parsed against `CommandSpec.jwt`.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        self.init(
            authKeyPath: try parsed.requiredValue("auth-key"),
            keyID: try CommandLineValues.identifier(parsed.requiredValue("key-id"), option: "--key-id") ?? "",
            teamID: try CommandLineValues.identifier(parsed.requiredValue("team-id"), option: "--team-id") ?? "",
            issuedAt: try parsed.value("issued-at").map(Self.parseIssuedAt)
        )
    }

    /// Accepts ASCII digits only (no sign, no spaces) that fit in an `Int`.
    private static func parseIssuedAt(_ text: String) throws(UsageError) -> Int {
        let digitsOnly = !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard digitsOnly, let seconds = Int(text) else {
            throw .invalidValue(
                option: "--issued-at", value: text, rule: "must be a non-negative integer")
        }
        return seconds
    }
}
