extension CommandSpec {
    /// `herald jwt`: print a provider authentication token.
    public static let jwt = CommandSpec(
        name: "jwt",
        summary: "Print a provider authentication token (JWT) signed with an APNs .p8 key.",
        options: [
            OptionSpec(
                "auth-key", valueName: "FILE", help: "The .p8 key from Apple Developer.", isRequired: true,
                isSecret: true, environmentVariable: "HERALD_AUTH_KEY"),
            OptionSpec(
                "key-id", valueName: "KEY_ID", help: "The 10-character ID of that key.", isRequired: true,
                environmentVariable: "HERALD_KEY_ID"),
            OptionSpec(
                "team-id", valueName: "TEAM_ID", help: "Your 10-character team ID.", isRequired: true,
                environmentVariable: "HERALD_TEAM_ID"),
            OptionSpec(
                "issued-at", valueName: "UNIX_TIME", help: "The iat claim, in seconds since 1970 (default: now)."),
        ],
        discussion: """
            The token is signed with ES256; APNs expects it in the header "authorization: bearer TOKEN". \
            APNs rejects a token older than one hour, and refreshing it more often than every 20 minutes \
            (TooManyProviderTokenUpdates): reuse one token in between. The key is never printed.
            """,
        examples: [
            "herald jwt --auth-key AuthKey_ABC123DEFG.p8 --key-id ABC123DEFG --team-id DEF123GHIJ"
        ]
    )
}
