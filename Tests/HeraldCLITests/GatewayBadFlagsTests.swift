import Foundation
import Testing

/// `herald gateway` refuses a bad command line with one line naming the flag (exit 2), and a start
/// that cannot happen with one naming the flag or file at fault (exit 1), leaving nothing running.
@Suite(.timeLimit(.minutes(2)))
struct GatewayBadFlagsTests {
    /// Usage errors: exit 2, the flag named.
    @Test(
        arguments: [
            ([], "missing required option --data-dir"),
            (["--data-dir", "d"], "--topic with its credentials, or --config"),
            (["--data-dir", "d", "--topic", "com.example.app"], "missing required option --auth-key"),
            (["--data-dir", "d", "--topic", "com.example.app", "--auth-key", "k.p8"], "--key-id"),
            (["--data-dir", "d", "--auth-key", "k.p8", "--config", "c.json"], "--auth-key applies to the --topic app"),
            (["--data-dir", "d", "--production", "--config", "c.json"], "--production applies to the --topic app"),
            (["--data-dir", "d", "--config", "c.json", "--tls-cert", "c.pem"], "--tls-key (with --tls-cert)"),
            (["--data-dir", "d", "--config", "c.json", "--listen", "8080"], "--listen must be HOST:PORT"),
            (
                ["--data-dir", "d", "--config", "c.json", "--scope", "send"],
                "--scope applies to 'herald gateway key' only"
            ),
            (["--data-dir", "d", "--topic", "not a bundle"], "--topic"),
            (["key", "create", "--data-dir", "d", "--scope", "root"], "--scope must be admin, send or register"),
            (["key", "create", "--data-dir", "d", "--scope", "admin", "--topic", "com.example.app"], "admin key"),
            (["key", "revoke", "--data-dir", "d"], "missing argument ID"),
            (["key", "list", "--data-dir", "d", "--config", "c.json"], "--config applies to serving"),
            (["key", "list", "--data-dir", "d", "--name", "x"], "--name does not apply to this key command"),
            (["key", "rotate", "--data-dir", "d"], "ACTION must be create, list or revoke"),
            (["keys", "--data-dir", "d"], "key create|list|revoke"),
        ] as [([String], String)])
    func usageErrorsNameTheFlag(_ arguments: [String], _ expected: String) throws {
        let run = try HeraldBinary.run(["gateway"] + arguments, environment: [:])
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.hasPrefix("herald gateway: ") && run.stderr.contains(expected), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    }

    @Test func anUnreadableKeyFileNamesTheFlag() throws {
        let scratch = try GatewayScratch()
        let run = try HeraldBinary.run([
            "gateway", "--listen", "127.0.0.1:0", "--data-dir", scratch.dataDirectory, "--topic", "com.example.app",
            "--auth-key", scratch.path + "/missing.p8", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ",
        ])
        #expect(run.status == 1)
        #expect(run.stderr.contains("--auth-key: cannot read '\(scratch.path)/missing.p8'"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.dataDirectory), "nothing written before the check")
        try scratch.write("bad.p8", "not a key")
        let bad = try HeraldBinary.run([
            "gateway", "--listen", "127.0.0.1:0", "--data-dir", scratch.dataDirectory, "--topic", "com.example.app",
            "--auth-key", scratch.path + "/bad.p8", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ",
        ])
        #expect(bad.status == 1 && bad.stderr.contains("--auth-key '\(scratch.path)/bad.p8'"), "\(bad.stderr)")
    }

    @Test func anUnreadableTLSFileNamesTheFlag() throws {
        let scratch = try GatewayScratch()
        let run = try HeraldBinary.run(
            [
                "gateway", "--listen", "127.0.0.1:0", "--data-dir", scratch.dataDirectory, "--tls-cert",
                scratch.path + "/missing.pem", "--tls-key", scratch.keyPath,
            ] + scratch.appFlags)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("herald gateway: --tls-cert '\(scratch.path)/missing.pem'"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.dataDirectory))
    }

    @Test func aPortInUseNamesListen() throws {
        let scratch = try GatewayScratch()
        let first = try GatewayProcess(["--data-dir", scratch.dataDirectory] + scratch.appFlags)
        defer { _ = first.stop() }
        let second = try HeraldBinary.run(
            ["gateway", "--listen", "127.0.0.1:\(first.port)", "--data-dir", scratch.path + "/other"] + scratch.appFlags
        )
        #expect(second.status == 1)
        #expect(second.stderr.hasPrefix("herald gateway: --listen 127.0.0.1:\(first.port): cannot listen"), "\(second)")
    }

    @Test func aBadConfigFileNamesTheField() throws {
        let scratch = try GatewayScratch()
        let config = try scratch.write(
            "gateway.json",
            #"{"apps": [{"bundle-id": "com.example.app", "environments": {"sandbox": {}}, "auth-key": "AuthKey.p8", "key-id": "ABC123DEFG", "team-id": "DEF123GHIJ"}, {"bundle-id": "com.example.b", "environments": {"sandbox": {}}, "key-id": "ABC123DEFG"}]}"#
        )
        let run = try HeraldBinary.run(["gateway", "--data-dir", scratch.dataDirectory, "--config", config])
        #expect(run.status == 1)
        #expect(run.stderr.contains("--config '\(config)': apps[1].auth-key: is required"), "\(run.stderr)")
        // The same app from the flags and the file: one place only.
        let fine = try scratch.write(
            "fine.json",
            #"{"apps": [{"bundle-id": "com.example.app", "environments": {"sandbox": {}}, "auth-key": "AuthKey.p8", "key-id": "ABC123DEFG", "team-id": "DEF123GHIJ"}]}"#
        )
        let both = try HeraldBinary.run(
            ["gateway", "--data-dir", scratch.dataDirectory, "--config", fine] + scratch.appFlags)
        #expect(both.status == 1 && both.stderr.contains("also configured in --config (apps[0])"), "\(both.stderr)")
    }

    @Test func keyCommandsNeedAnExistingStore() throws {
        let scratch = try GatewayScratch()
        let run = try scratch.key(["list"])
        #expect(run.status == 1 && run.stderr.contains("holds no gateway store"), "\(run)")
        #expect(!FileManager.default.fileExists(atPath: scratch.dataDirectory), "a mistyped directory is not made")
    }
}
