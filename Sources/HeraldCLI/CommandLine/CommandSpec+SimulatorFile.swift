extension CommandSpec {
    /// `herald simulator-file FILE|-`: wrap a payload into a Simulator `.apns` file.
    public static let simulatorFile = CommandSpec(
        name: "simulator-file",
        summary: "Wrap a notification payload into a .apns file for the iOS Simulator.",
        options: [
            OptionSpec(
                "topic", valueName: "BUNDLE_ID", help: "The app's bundle id (its apns-topic).", isRequired: true),
            .hiddenAlias("bundle", of: OptionSpec("topic", valueName: "BUNDLE_ID", help: "")),
            OptionSpec(
                "output", short: "o", valueName: "FILE", help: "Where to write the file (default: standard output)."),
        ],
        positionals: [
            PositionalSpec("FILE", help: "The payload JSON file, or - for standard input.")
        ],
        discussion: """
            The file is the payload with a "Simulator Target Bundle" key beside "aps", at most 4096 bytes. \
            Simulator delivers it when the file is dropped on its window or passed to \
            `xcrun simctl push booted FILE`.
            """,
        examples: [
            "herald simulator-file --topic com.example.app payload.json -o alert.apns"
        ]
    )
}
