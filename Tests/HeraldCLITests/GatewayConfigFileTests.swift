import APNs
import APNsClient
import Gateway
import Testing

/// `GatewayConfigFile`: the apps, environments and credentials of `herald gateway --config`.
@Suite(.timeLimit(.minutes(1)))
struct GatewayConfigFileTests {
    static func parse(_ text: String) throws(FieldError) -> GatewayConfigFile {
        try GatewayConfigFile(bytes: Array(text.utf8), path: "/etc/herald/gateway.json")
    }

    @Test func appsEnvironmentsAndWhoseCredentials() throws {
        let file = try Self.parse(
            """
            {"apps": [
              {"bundle-id": "com.example.app", "auth-key": "AuthKey.p8", "key-id": "ABC123DEFG", "team-id": "DEF123GHIJ",
               "ca-file": "/ca.pem",
               "environments": {"sandbox": {"endpoint": "https://localhost:2197"},
                                "production": {"cert": "prod.p12", "cert-password": "pw", "ca-file": "prod-ca.pem"}}},
              {"bundle-id": "com.example.other", "cert": "/abs/dev.pem", "cert-key": "dev-key.pem",
               "environments": {"sandbox": {}}}
            ]}
            """)
        #expect(file.apps.map(\.bundleID) == ["com.example.app", "com.example.other"])
        let first = try #require(file.apps.first)
        #expect(try first.app().environments == [.sandbox, .production])
        let sandbox = try #require(first.environments[.sandbox])
        #expect(
            sandbox.credentials
                == .token(authKeyPath: "/etc/herald/AuthKey.p8", keyID: "ABC123DEFG", teamID: "DEF123GHIJ"))
        #expect(sandbox.endpoint == APNsEndpoint(host: "localhost", port: 2197))
        #expect(sandbox.caFile == "/ca.pem")
        #expect(sandbox.names.authKey == "apps[0].auth-key")
        // An environment with credentials of its own uses them alone.
        let production = try #require(first.environments[.production])
        #expect(production.credentials == .certificate(path: "/etc/herald/prod.p12", keyPath: nil, password: "pw"))
        #expect(production.endpoint == .production)
        #expect(production.caFile == "/etc/herald/prod-ca.pem")
        #expect(production.names.caFile == "apps[0].environments.production.ca-file")
        let other = try #require(file.apps.last?.environments[.sandbox])
        #expect(
            other.credentials == .certificate(path: "/abs/dev.pem", keyPath: "/etc/herald/dev-key.pem", password: nil))
        #expect(other.endpoint == .sandbox)
    }

    @Test(arguments: [
        ("[]", "(root)"),
        (#"{"app": []}"#, "app"),
        (#"{"apps": []}"#, "apps"),
        (#"{"apps": [{"environments": {"sandbox": {}}}]}"#, "apps[0].bundle-id"),
        (#"{"apps": [{"bundle-id": "com example", "environments": {"sandbox": {}}}]}"#, "apps[0].bundle-id"),
        (#"{"apps": [{"bundle-id": "com.a.b"}]}"#, "apps[0].environments"),
        (#"{"apps": [{"bundle-id": "com.a.b", "environments": {"staging": {}}}]}"#, "apps[0].environments.staging"),
        (#"{"apps": [{"bundle-id": "com.a.b", "environments": {"sandbox": {}}}]}"#, "apps[0].auth-key"),
        (
            #"{"apps": [{"bundle-id": "com.a.b", "auth-key": "k.p8", "team-id": "DEF123GHIJ", "environments": {"sandbox": {}}}]}"#,
            "apps[0].key-id"
        ),
        (
            #"{"apps": [{"bundle-id": "com.a.b", "auth-key": "k.p8", "key-id": "short", "team-id": "DEF123GHIJ", "environments": {"sandbox": {}}}]}"#,
            "apps[0].key-id"
        ),
        (
            #"{"apps": [{"bundle-id": "com.a.b", "cert": "c.p12", "auth-key": "k.p8", "environments": {"sandbox": {}}}]}"#,
            "apps[0].auth-key"
        ),
        (
            #"{"apps": [{"bundle-id": "com.a.b", "cert": "c.p12", "environments": {"production": {"cert-key": "k.pem"}}}]}"#,
            "apps[0].environments.production.cert-key"
        ),
        (
            #"{"apps": [{"bundle-id": "com.a.b", "cert": "c.p12", "environments": {"sandbox": {"endpoint": "localhost:2197"}}}]}"#,
            "apps[0].environments.sandbox.endpoint"
        ),
        (
            #"{"apps": [{"bundle-id": "com.a.b", "cert": "c.p12", "environments": {"sandbox": {"topic": "x"}}}]}"#,
            "apps[0].environments.sandbox.topic"
        ),
        (#"{"apps": [{"bundle-id": "com.a.b", "cert": 1, "environments": {"sandbox": {}}}]}"#, "apps[0].cert"),
        (
            #"{"apps": [{"bundle-id": "com.a.b", "cert": "c.p12", "environments": {"sandbox": {}}}, {"bundle-id": "com.a.b", "cert": "c.p12", "environments": {"sandbox": {}}}]}"#,
            "apps[1].bundle-id"
        ),
    ])
    func badFilesNameTheField(_ text: String, _ field: String) {
        #expect(throws: FieldError.self) { try Self.parse(text) }
        do {
            _ = try Self.parse(text)
        } catch {
            #expect(error.field == field, "\(error)")
        }
    }

    @Test func aKeyFileThatCannotBeReadIsReportedByItsField() throws {
        let file = try Self.parse(
            #"{"apps": [{"bundle-id": "com.a.b", "environments": {"sandbox": {"auth-key": "missing.p8", "key-id": "ABC123DEFG", "team-id": "DEF123GHIJ"}}}]}"#
        )
        let settings = try #require(file.apps.first?.environments[.sandbox])
        #expect {
            _ = try settings.makeClient()
        } throws: { error in
            "\(error)".hasPrefix("apps[0].environments.sandbox.auth-key: cannot read '/etc/herald/missing.p8'")
        }
    }

    @Test func theExampleInExamplesParses() throws {
        let path =
            #filePath.replacingOccurrences(of: "Tests/HeraldCLITests/GatewayConfigFileTests.swift", with: "")
            + "Examples/gateway/gateway-config.json"
        let bytes = try #require(try? APNsClientSettings.readFile(path))
        let file = try GatewayConfigFile(bytes: bytes, path: path)
        #expect(file.apps.count == 2)
        #expect(file.apps.first?.environments.count == 2)
    }
}
