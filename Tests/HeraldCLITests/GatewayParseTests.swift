import HeraldCLI
import Testing

/// `herald gateway`'s command line as a pure function: the values each form gives.
@Suite(.timeLimit(.minutes(1)))
struct GatewayParseTests {
    static let app = [
        "--topic", "com.example.app", "--auth-key", "k.p8", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ",
    ]

    static func options(_ arguments: [String], environment: [String: String] = [:]) throws -> GatewayOptions {
        guard case .gateway(let options) = try parseCommandLine(["gateway"] + arguments, environment: environment)
        else {
            Issue.record("not a gateway command")
            throw UsageError.missingArgument("gateway")
        }
        return options
    }

    @Test func servingWithTheFlagsOfSend() throws {
        let options = try Self.options(
            ["--data-dir", "d", "--listen", "[::1]:0", "--production", "--tls-cert", "c.pem", "--tls-key", "k.pem"]
                + Self.app)
        #expect(options.dataDirectory == "d")
        guard case .serve(let serve) = options.action else { throw UsageError.missingArgument("serve") }
        #expect(serve.host == "::1" && serve.port == 0)
        #expect(serve.topic == "com.example.app")
        #expect(serve.credentials == .token(authKeyPath: "k.p8", keyID: "ABC123DEFG", teamID: "DEF123GHIJ"))
        #expect(serve.destination == .production)
        #expect(serve.tlsCertificate == "c.pem" && serve.tlsKey == "k.pem")
        #expect(serve.configPath == nil)
    }

    @Test func theDeliveryFlagsAndTheirBounds() throws {
        let flags = ["--claim-batch", "50", "--send-concurrency", "300", "--lease", "15"]
        guard case .serve(let serve) = try Self.options(["--data-dir", "d"] + flags + Self.app).action else {
            throw UsageError.missingArgument("serve")
        }
        #expect(serve.claimBatch == 50 && serve.sendConcurrency == 300 && serve.leaseSeconds == 15)
        guard case .serve(let defaults) = try Self.options(["--data-dir", "d"] + Self.app).action else {
            throw UsageError.missingArgument("serve")
        }
        #expect(defaults.claimBatch == nil && defaults.sendConcurrency == nil && defaults.leaseSeconds == nil)
        for (flag, value) in [
            ("--claim-batch", "0"), ("--claim-batch", "10001"), ("--send-concurrency", "x"),
            ("--lease", "0"),
        ] {
            #expect(throws: UsageError.self) { try Self.options(["--data-dir", "d", flag, value] + Self.app) }
        }
        #expect(throws: UsageError.self) { try Self.options(["key", "list", "--data-dir", "d", "--lease", "5"]) }
    }

    @Test func theDefaultsAndAConfigAlone() throws {
        guard case .serve(let serve) = try Self.options(["--data-dir", "d", "--config", "g.json"]).action else {
            throw UsageError.missingArgument("serve")
        }
        #expect(serve.host == "127.0.0.1" && serve.port == 8080)
        #expect(serve.topic == nil && serve.credentials == .none && serve.configPath == "g.json")
    }

    /// Credentials in the environment fill in for --topic and are ignored without it (they would
    /// otherwise make every --config start a usage error on a machine that sets them for send).
    @Test func environmentCredentialsServeTopicOnly() throws {
        let environment = [
            "HERALD_AUTH_KEY": "env.p8", "HERALD_KEY_ID": "ABC123DEFG", "HERALD_TEAM_ID": "DEF123GHIJ",
            "HERALD_ENDPOINT": "http://127.0.0.1:2197",
        ]
        guard
            case .serve(let withConfig) = try Self.options(
                ["--data-dir", "d", "--config", "g.json"], environment: environment
            )
            .action
        else { throw UsageError.missingArgument("serve") }
        #expect(withConfig.credentials == .none && withConfig.destination == .sandbox)
        guard
            case .serve(let withTopic) = try Self.options(
                ["--data-dir", "d", "--topic", "com.example.app"], environment: environment
            ).action
        else { throw UsageError.missingArgument("serve") }
        #expect(withTopic.credentials == .token(authKeyPath: "env.p8", keyID: "ABC123DEFG", teamID: "DEF123GHIJ"))
        #expect(withTopic.destination == .endpoint("http://127.0.0.1:2197"))
    }

    @Test(
        arguments: [
            (
                ["key", "create", "--data-dir", "d"],
                GatewayOptions.Action.createKey(scope: "send", name: nil, bundleID: nil)
            ),
            (
                [
                    "key", "create", "--data-dir", "d", "--scope", "register", "--name", "ios", "--topic",
                    "com.example.app",
                ],
                .createKey(scope: "register", name: "ios", bundleID: "com.example.app")
            ),
            (["key", "list", "--data-dir", "d"], .listKeys(json: false)),
            (["key", "list", "--json", "--data-dir", "d"], .listKeys(json: true)),
            (["key", "revoke", "key_0123456789abcdef", "--data-dir", "d"], .revokeKey(id: "key_0123456789abcdef")),
        ] as [([String], GatewayOptions.Action)])
    func keyCommands(_ arguments: [String], _ expected: GatewayOptions.Action) throws {
        let options = try Self.options(arguments, environment: ["HERALD_AUTH_KEY": "env.p8"])
        #expect(options.action == expected)
        #expect(options.dataDirectory == "d")
    }
}
