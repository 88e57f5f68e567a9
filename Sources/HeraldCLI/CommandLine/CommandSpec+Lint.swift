extension CommandSpec {
    /// `herald lint FILE|-`: check a payload and its headers against Apple's rules.
    public static let lint = CommandSpec(
        name: "lint",
        summary: "Check a notification payload and its headers against Apple's rules.",
        options: [
            OptionSpec(
                "type", valueName: "TYPE",
                help: "The apns-push-type: alert, background, voip, liveactivity, ... (default: inferred)."),
            OptionSpec(
                "topic", valueName: "TOPIC", help: "The apns-topic: the bundle ID, with a suffix for some types."),
            OptionSpec("priority", valueName: "PRIORITY", help: "The apns-priority: 10, 5 or 1."),
            OptionSpec("collapse-id", valueName: "ID", help: "The apns-collapse-id (at most 64 bytes)."),
            OptionSpec("expiration", valueName: "EXPIRATION", help: "The apns-expiration: UNIX seconds, or 0."),
            OptionSpec("token", short: "t", valueName: "HEX", help: "The device token, in hexadecimal."),
            OptionSpec("apns-id", valueName: "UUID", help: "The apns-id: a UUID."),
            OptionSpec("simulator", help: "The input is a Simulator .apns file (with \"Simulator Target Bundle\")."),
            OptionSpec("broadcast", help: "The payload is for a broadcast channel."),
            OptionSpec("json", help: "Print the findings as JSON."),
            OptionSpec(
                "requests", valueName: "FILE",
                help: "Check an NDJSON requests file (as for 'send --requests'), or -, instead of a payload."),
        ],
        positionals: [
            PositionalSpec("FILE", help: "The payload JSON file, or - for standard input.", isOptional: true)
        ],
        discussion: """
            Each finding is an error, a warning or info. Header options are checked as APNs would check \
            them, and against the payload.

            The size checked is the payload's compact form, the bytes 'herald send' sends: a \
            pretty-printed file goes out without its whitespace, and its own size is shown beside.

            With no --type, the push type is inferred from the payload (content-available alone means \
            background); give --type to check the payload as that type.

            With --requests, every line of an NDJSON requests file is checked as 'herald send --requests' \
            would send it (the header options are the defaults for lines without their own): findings are \
            printed with their line numbers, then a summary.

            Exit status:
              0  no errors: the input is clean or has only warnings and info
              1  at least one finding is an error
              2  usage error: the command line is wrong
            """,
        examples: [
            "herald lint payload.json",
            "herald lint --type background --priority 5 --topic com.example.app payload.json",
            "cat payload.json | herald lint --json -",
            "herald lint --simulator notification.apns",
            "herald lint --topic com.example.app --requests batch.ndjson",
        ]
    )
}
