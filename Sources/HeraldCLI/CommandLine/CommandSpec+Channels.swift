extension OptionSpec {
    /// The app's bundle id, spelled `--topic` in every command (APNs's apns-topic); channel
    /// commands take it bare, without a push-type suffix.
    static let topicAsBundleID = OptionSpec(
        "topic", valueName: "BUNDLE_ID", help: "The app's bundle id (the bare apns-topic, no suffix).")
}

extension CommandSpec {
    /// `herald channels create|read|delete|list`: manage broadcast channels (iOS 18).
    public static let channels = CommandSpec(
        name: "channels",
        summary: "Manage broadcast channels: create, read, delete, list.",
        options: OptionSpec.credentialOptions + [
            OptionSpec.topicAsBundleID,
            .hiddenAlias("bundle-id", of: OptionSpec.topicAsBundleID),
            OptionSpec(
                "storage-policy", valueName: "0|1", help: "create: 0 stores nothing, 1 the most recent message."),
            OptionSpec("channel", valueName: "ID", help: "read, delete: the channel id APNs gave on create."),
            OptionSpec("request-id", valueName: "UUID", help: "The apns-request-id (default: a new UUID)."),
        ] + OptionSpec.destinationOptions.filter { $0.name != "port-2197" } + [
            OptionSpec("timeout", valueName: "SECONDS", help: "Per-request timeout (default 30)."),
            OptionSpec("json", help: "Print the result as one JSON object."),
        ],
        positionals: [
            PositionalSpec(
                "ACTION", help: "create, read, delete or list.", choices: ["create", "read", "delete", "list"])
        ],
        discussion: """
            Channel management goes to Apple's management host \
            (api-manage-broadcast.sandbox.push.apple.com:2195, or api-manage-broadcast.push.apple.com:2196 \
            with --production); --endpoint sends to another server, such as herald emulator. The \
            storage policy of a channel never changes; APNs allows 10,000 channels per app. Send to a \
            channel with 'herald send --channel ID --topic BUNDLE_ID'.

            create prints the new channel id; read its storage policy and push type; delete nothing; \
            list one channel id a line.

            Exit status: 0 done, 1 APNs refused the request or it failed, 2 usage error.
            """,
        examples: [
            "herald channels create --auth-key AuthKey_ABC123DEFG.p8 --key-id ABC123DEFG \\\n"
                + "    --team-id DEF123GHIJ --topic com.example.app --storage-policy 1",
            "herald channels list --endpoint https://localhost:2197 --ca-file herald-data/ca.pem \\\n"
                + "    --auth-key ... --topic com.example.app",
        ]
    )
}
