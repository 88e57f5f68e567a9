extension CommandSpec {
    /// `herald gateway`: the provider backend (docs/GATEWAY.md), and `herald gateway key ...`.
    public static let gateway = CommandSpec(
        name: "gateway",
        summary: "Run the push gateway (device tokens, sends, pruning), or manage its API keys.",
        options: [
            OptionSpec("listen", valueName: "HOST:PORT", help: "Where the API listens (default 127.0.0.1:8080)."),
            OptionSpec(
                "data-dir", valueName: "DIR",
                help: "The gateway's state: DIR/gateway.sqlite and, on first start, DIR/admin-api-key "
                    + "(required without --database; with it, the admin key only)."),
            OptionSpec(
                "database", valueName: "URL",
                help: "Keep the state in PostgreSQL (postgres://user@host/db), which several gateways may share.",
                environmentVariable: "HERALD_DATABASE_URL"),
            OptionSpec("topic", valueName: "BUNDLE_ID", help: "The app to serve, with the credentials below."),
        ] + OptionSpec.credentialOptions + OptionSpec.destinationOptions + [
            OptionSpec(
                "config", valueName: "FILE", help: "A JSON file of apps, each with credentials and environments."),
            OptionSpec("tls-cert", valueName: "FILE", help: "Serve the API over TLS: the PEM certificate chain."),
            OptionSpec("tls-key", valueName: "FILE", help: "The PEM private key of --tls-cert.", isSecret: true),
            OptionSpec("claim-batch", valueName: "N", help: "Deliveries each worker claims at a time (default 500)."),
            OptionSpec(
                "send-concurrency", valueName: "N",
                help: "Sends in flight at most, shared by max(2, N / claim batch) workers (default 1000)."),
            OptionSpec(
                "lease", valueName: "SECONDS",
                help: "How long a claim holds its rows; a crash's claims are sent again after it (default 120)."),
            OptionSpec("scope", valueName: "SCOPE", help: "key create: admin, send or register (default send)."),
            OptionSpec("name", valueName: "NAME", help: "key create: a name to recognise the key by."),
            OptionSpec("json", help: "key list: one JSON object per key."),
            OptionSpec("strict", help: "devices import: import nothing if any line is refused."),
        ],
        positionals: [
            PositionalSpec(
                "key", help: "Instead of serving: key create|list|revoke, or devices import.", isOptional: true,
                choices: ["key", "devices"]),
            PositionalSpec(
                "ACTION", help: "create, list or revoke; import.", isOptional: true,
                choices: ["create", "list", "revoke", "import"]),
            PositionalSpec(
                "ID", help: "revoke: the key's id (from key list); import: the NDJSON file.", isOptional: true),
        ],
        discussion: """
            Serving: the API (docs/GATEWAY.md) on one port, HTTP/1.1 and HTTP/2 (h2c with prior knowledge, \
            or TLS with ALPN h2 and http/1.1 given --tls-cert and --tls-key). The apps come from --topic \
            with --auth-key/--key-id/--team-id or --cert (one environment: --sandbox, the default, \
            --production, or --endpoint, which serves the sandbox environment), and from --config (any \
            number of apps, each with sandbox, production or both). Both may be given; an app in both is an \
            error. The credential and destination flags apply to --topic only. On first start with an empty \
            store an admin key is written to DIR/admin-api-key (mode 0600). Ctrl-C or SIGTERM stops it \
            (exit 0).

            PostgreSQL: --database URL (or HERALD_DATABASE_URL) keeps the state in a PostgreSQL database \
            instead of DIR/gateway.sqlite; several gateway processes may serve one database and share its \
            sends (each claims deliveries under a lease; a process that dies leaves its claims to the others \
            when the lease runs out). --data-dir is then optional and holds the first admin key only; \
            without it, make one with 'key create --database URL --scope admin'. The key and import \
            commands take --database too.

            Keys: 'key create' prints a new key's secret once (the store keeps only its digest); --topic \
            limits it to one app. 'key list' shows id, name, scope, app, created and revoked, never secrets. \
            'key revoke ID': the key verifies no more (401). They work while the gateway runs.

            Devices: 'devices import FILE' (- reads standard input) registers one device per NDJSON line, \
            {"bundle-id", "token", "environment", "user", "tags", "locale", "app-version"} as the PUT body \
            (--topic for lines without bundle-id, --sandbox or --production for lines without environment), \
            in batched transactions, also while the gateway runs. A refused line is reported with its number \
            and field and skipped; --strict imports nothing if any line is refused. Exit 1 if any was.

            Exit status: 0 stopped cleanly or the command done, 1 a start or store failure or a refused \
            line, 2 usage error.
            """,
        examples: [
            "herald gateway --data-dir gateway-data --topic com.example.app \\\n"
                + "    --auth-key AuthKey_ABC123DEFG.p8 --key-id ABC123DEFG --team-id DEF123GHIJ --production",
            "herald gateway --data-dir gateway-data --config gateway.json --listen 0.0.0.0:8443 \\\n"
                + "    --tls-cert server.pem --tls-key server-key.pem",
            "herald gateway --database postgres://herald@db.internal/herald --config gateway.json \\\n"
                + "    --listen 0.0.0.0:8080",
            "herald gateway key create --data-dir gateway-data --scope register --topic com.example.app",
            "herald gateway key list --data-dir gateway-data",
            "herald gateway key revoke --data-dir gateway-data key_1a2b3c4d5e6f7a8b",
            "herald gateway devices import --data-dir gateway-data --topic com.example.app --production \\\n"
                + "    devices.ndjson",
            "herald gateway devices import --database postgres://herald@db.internal/herald \\\n"
                + "    --topic com.example.app --production devices.ndjson",
        ]
    )
}
