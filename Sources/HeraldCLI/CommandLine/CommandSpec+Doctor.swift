extension CommandSpec {
    /// `herald doctor`: why a notification did not arrive, and what to do.
    public static let doctor = CommandSpec(
        name: "doctor",
        summary: "Explain why a notification did not arrive: the first cause, and its fix.",
        // The payload and header options are lint's own: the same names, the same meaning.
        options: lint.options.filter { !["json", "requests", "simulator", "broadcast", "apns-id"].contains($0.name) }
            + [
                OptionSpec(
                    "apns-id", valueName: "ID",
                    help: "The apns-id header; with --emulator, the apns-id or apns-unique-id to look up in its log."),
                OptionSpec(
                    "emulator", valueName: "URL",
                    help: "The emulator whose delivery log to read (--apns-id is looked up there)."),
                OptionSpec(
                    "notification", valueName: "ID",
                    help: "A gateway notification id: its deliveries, read with --gateway."
                ),
                OptionSpec("gateway", valueName: "URL", help: "The gateway to read --notification from."),
                OptionSpec(
                    "api-key", valueName: "KEY", help: "The gateway API key (scope send).", isSecret: true,
                    environmentVariable: "HERALD_API_KEY"),
                OptionSpec(
                    "control-token", valueName: "SECRET", help: "The emulator's --control-token (default: none).",
                    isSecret: true, environmentVariable: "HERALD_CONTROL_TOKEN"),
                OptionSpec(
                    "ca-file", valueName: "FILE", help: "The CA to trust for https:// URLs (default: the system's).",
                    environmentVariable: "HERALD_CA_FILE"),
                OptionSpec(
                    "profile", valueName: "FILE",
                    help: "A device profile (docs/DEVICE.md) to play the notification on: what the user saw."),
                OptionSpec(
                    "reason", valueName: "REASON", help: "APNs's answer, as your logs have it (Unregistered, ...)."),
                OptionSpec("timestamp", valueName: "MS", help: "The 410's timestamp (milliseconds since 1970)."),
                OptionSpec("json", help: "Print the findings as JSON."),
            ],
        positionals: [
            PositionalSpec(
                "FILE", help: "The payload JSON file, or - for standard input (with lint's header options).",
                isOptional: true)
        ],
        discussion: """
            The notification comes from a payload FILE with the header options of 'herald lint', from \
            --apns-id (an apns-id or apns-unique-id) looked up in --emulator's delivery log, or from a gateway \
            --notification id (with --gateway; add --emulator to read each delivery's request there too).

            The path is walked in order: 1 the request (lint), 2 APNs's answer (the reason with Apple's \
            meaning and its usual causes), 3 storage while offline (only the newest push per app is kept; \
            collapsed; expired), 4 the device (with --profile: authorization, foreground without willPresent, \
            the service extension, the background budget). Findings are numbered, the first cause first, each \
            with its fix. docs/DOCTOR.md has the details and the JSON shape.

            Exit status:
              0  no cause found
              1  a cause was found (the first finding)
              2  usage error, or a file or lookup failed
            """,
        examples: [
            "herald doctor --type background --priority 10 --topic com.example.app payload.json",
            "herald doctor --emulator http://127.0.0.1:2197 --apns-id 5E5F1A2B-0C3D-4E5F-8A9B-0C1D2E3F4A5B",
            "herald doctor --emulator http://127.0.0.1:2197 --apns-id ID --profile Examples/devices/chat.json",
            "herald doctor --gateway http://127.0.0.1:8080 --api-key KEY --notification ID --emulator URL",
            "herald doctor --json --reason Unregistered --timestamp 1767258000000 -t HEX payload.json",
        ]
    )
}
