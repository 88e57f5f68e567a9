extension CommandSpec {
    /// `herald send`: send notifications to APNs (or the emulator, or any endpoint).
    public static let send = CommandSpec(
        name: "send",
        summary: "Send notifications to APNs: one payload to many tokens, or a stream of requests.",
        options: [
            OptionSpec(
                "auth-key", valueName: "FILE", help: "Token auth: the .p8 key from Apple Developer.", isSecret: true,
                environmentVariable: "HERALD_AUTH_KEY"),
            OptionSpec("key-id", valueName: "KEY_ID", help: "Token auth: the key's 10-character ID.", environmentVariable: "HERALD_KEY_ID"),
            OptionSpec("team-id", valueName: "TEAM_ID", help: "Token auth: your 10-character team ID.", environmentVariable: "HERALD_TEAM_ID"),
            OptionSpec("cert", valueName: "FILE", help: "Certificate auth: a .p12 file, or a PEM certificate (with --cert-key)."),
            OptionSpec("cert-key", valueName: "FILE", help: "The PEM private key for a PEM --cert.", isSecret: true),
            OptionSpec(
                "cert-password", valueName: "PASSWORD", help: "The .p12 (or encrypted key) password.", isSecret: true,
                environmentVariable: "HERALD_CERT_PASSWORD"),
            OptionSpec("topic", valueName: "TOPIC", help: "The apns-topic: the bundle ID, with the push type's suffix."),
            OptionSpec("token", short: "t", valueName: "HEX", help: "A device token.", isRepeatable: true),
            OptionSpec("tokens-file", valueName: "FILE", help: "A file of device tokens, one a line."),
            OptionSpec("type", valueName: "TYPE", help: "The apns-push-type (default: inferred from the payload)."),
            OptionSpec("priority", valueName: "PRIORITY", help: "The apns-priority: 10, 5 or 1."),
            OptionSpec("expiration", valueName: "UNIX_TIME", help: "The apns-expiration: UNIX seconds, or 0 to never store."),
            OptionSpec("collapse-id", valueName: "ID", help: "The apns-collapse-id (at most 64 bytes)."),
            OptionSpec("apns-id", valueName: "UUID", help: "The apns-id (default: a new UUID per notification)."),
            OptionSpec("alert", valueName: "TEXT", help: "Quick payload: an alert with this body."),
            OptionSpec("title", valueName: "TEXT", help: "Quick payload: the alert's title."),
            OptionSpec("body", valueName: "TEXT", help: "Quick payload: the alert's body (same as --alert)."),
            OptionSpec("badge", valueName: "N", help: "Quick payload: the badge number (0 clears it)."),
            OptionSpec("sound", valueName: "NAME", help: "Quick payload: a sound file name, or default."),
            OptionSpec("requests", valueName: "FILE", help: "Bulk: NDJSON requests, one a line, or - for standard input."),
            OptionSpec("sandbox", help: "Send to api.sandbox.push.apple.com (the default)."),
            OptionSpec("production", help: "Send to api.push.apple.com."),
            OptionSpec("endpoint", valueName: "URL", help: "Send to another server: https://HOST[:PORT], or http:// for h2c."),
            OptionSpec("port-2197", help: "Use Apple's alternative port 2197 instead of 443."),
            OptionSpec("ca-file", valueName: "FILE", help: "Trust this CA (PEM) instead of the system's."),
            OptionSpec("proxy", valueName: "URL", help: "An HTTP CONNECT proxy, http://HOST:PORT (default: $HTTPS_PROXY)."),
            OptionSpec("connections", valueName: "N", help: "Connections to open at most (default 1; 4 in bulk mode)."),
            OptionSpec("concurrency", valueName: "N", help: "Notifications in flight at most (default 1000)."),
            OptionSpec("timeout", valueName: "SECONDS", help: "Per-request timeout (default 30)."),
            OptionSpec("retries", valueName: "N", help: "Resends of retryable failures (default 2)."),
            OptionSpec("dry-run", help: "Lint and print the requests without sending."),
            OptionSpec("force", help: "Send even when lint finds errors."),
            OptionSpec("json", help: "Print one JSON object per result, and the summary as JSON."),
            OptionSpec("quiet", short: "q", help: "Print only failures and the summary."),
        ],
        positionals: [
            PositionalSpec("PAYLOAD", help: "The payload JSON file, or - for standard input.", isOptional: true)
        ],
        discussion: """
            Credentials: --auth-key with --key-id and --team-id (token auth), or --cert (certificate auth). \
            The payload comes from PAYLOAD, or from the quick flags (--alert/--title/--body/--badge/--sound). \
            Every notification is linted first; errors stop the send unless --force.

            Bulk mode (--requests): each line is a JSON object with "token" and "payload" and, optionally, \
            any header by its APNs name ("apns-topic", "apns-push-type", "apns-priority", "apns-expiration", \
            "apns-collapse-id", "apns-id"); the flags give the defaults. Any number of lines is streamed in \
            bounded memory; a summary by reason with latency percentiles ends the run.

            Exit status: 0 all sent, 1 any notification failed or was refused by lint, 2 usage error.
            """,
        examples: [
            "herald send --auth-key AuthKey_ABC123DEFG.p8 --key-id ABC123DEFG --team-id DEF123GHIJ \\\n"
                + "    --topic com.example.app --token 1a2b3c... --title Hello --body World",
            "herald send --cert push.p12 --cert-password secret --production \\\n"
                + "    --topic com.example.app --tokens-file tokens.txt payload.json",
            "herald send --endpoint https://localhost:2197 --ca-file herald-data/ca.pem \\\n"
                + "    --auth-key ... --requests batch.ndjson",
        ]
    )
}
