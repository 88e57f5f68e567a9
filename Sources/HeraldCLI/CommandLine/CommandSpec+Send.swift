extension CommandSpec {
    /// `herald send`: send notifications to APNs (or the emulator, or any endpoint).
    public static let send = CommandSpec(
        name: "send",
        summary: "Send notifications to APNs: one payload to many tokens, or a stream of requests.",
        options: OptionSpec.credentialOptions + [
            OptionSpec(
                "topic", valueName: "TOPIC", help: "The apns-topic: the bundle ID, with the push type's suffix."),
            OptionSpec("token", short: "t", valueName: "HEX", help: "A device token.", isRepeatable: true),
            OptionSpec("tokens-file", valueName: "FILE", help: "A file of device tokens, one a line."),
            OptionSpec(
                "channel", valueName: "ID",
                help: "Broadcast to this channel instead (--topic is the bundle id; see 'herald channels')."),
            OptionSpec("type", valueName: "TYPE", help: "The apns-push-type (default: inferred from the payload)."),
            OptionSpec("priority", valueName: "PRIORITY", help: "The apns-priority: 10, 5 or 1."),
            OptionSpec(
                "expiration", valueName: "UNIX_TIME", help: "The apns-expiration: UNIX seconds, or 0 to never store."),
            OptionSpec("collapse-id", valueName: "ID", help: "The apns-collapse-id (at most 64 bytes)."),
            OptionSpec("apns-id", valueName: "UUID", help: "The apns-id (default: a new UUID per notification)."),
            OptionSpec("alert", valueName: "TEXT", help: "Quick payload: an alert with this body."),
            OptionSpec("title", valueName: "TEXT", help: "Quick payload: the alert's title."),
            OptionSpec("body", valueName: "TEXT", help: "Quick payload: the alert's body (same as --alert)."),
            OptionSpec("badge", valueName: "N", help: "Quick payload: the badge number (0 clears it)."),
            OptionSpec("sound", valueName: "NAME", help: "Quick payload: a sound file name, or default."),
            OptionSpec(
                "requests", valueName: "FILE", help: "Bulk: NDJSON requests, one a line, or - for standard input."),
            OptionSpec(
                "skip-lines", valueName: "N",
                help: "Bulk: skip the first N lines (resume an interrupted send where it said)."),
        ] + OptionSpec.destinationOptions + [
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
            bounded memory; a summary by reason with latency percentiles ends the run. Each distinct payload \
            and headers is linted once: a line with an error is refused (unless --force), with its line \
            number, like a malformed line or one over 1 MiB, and the run goes on; warnings are printed once \
            and counted. --dry-run prints what each line would send. Ctrl-C stops reading, lets what is in \
            flight finish, prints the summary and the --skip-lines N to resume with; a second Ctrl-C exits \
            at once.

            Broadcast (--channel): one Live Activity update or end to every device subscribed to the \
            channel, POST /4/broadcasts/apps/<bundle id> with apns-push-type liveactivity; --topic names \
            the bare bundle id. Linted with the broadcast rules. Prints the apns-request-id.

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
