import Foundation
import Keys
import Testing

/// `herald gateway` through the real binary: start, the admin key file, keys, devices with curl over
/// HTTP/1.1 and HTTP/2, --config, TLS, SIGTERM.
@Suite(.timeLimit(.minutes(2)))
struct GatewayCommandTests {
    static let token = String(repeating: "ab", count: 32)

    @Test func theFirstStartWritesTheAdminKeyOnceAndARestartKeepsIt() throws {
        let scratch = try GatewayScratch()
        let first = try GatewayProcess(["--data-dir", scratch.dataDirectory] + scratch.appFlags)
        #expect(first.firstLine == "herald gateway: listening on http://127.0.0.1:\(first.port) (HTTP/1.1 and HTTP/2)")
        let health = try Curl.run([first.url + "/healthz"])
        #expect(health.status == 200 && health.body == #"{"status":"ok"}"#, "\(health)")
        let stopped = first.stop()
        #expect(stopped.status == 0, "\(stopped)")
        #expect(stopped.stdout.hasSuffix("herald gateway: stopped\n"), "\(stopped.stdout)")
        #expect(stopped.stderr.contains("created the admin API key key_"), "\(stopped.stderr)")
        #expect(stopped.stderr.contains(scratch.dataDirectory + "/admin-api-key (mode 0600)"), "\(stopped.stderr)")

        let keyPath = scratch.dataDirectory + "/admin-api-key"
        var status = stat()
        #expect(stat(keyPath, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        let secret = try String(contentsOfFile: keyPath, encoding: .utf8)
        #expect(secret.hasPrefix("hk_") && secret.count == 68, "\(secret)")
        let modified = status.st_mtim

        // The admin key works: it may read a device (send scope and above).
        let again = try GatewayProcess(["--data-dir", scratch.dataDirectory] + scratch.appFlags)
        let read = try Curl.run([
            "-H", "authorization: Bearer \(secret.trimmingCharacters(in: .whitespacesAndNewlines))",
            again.url + "/v1/apps/com.example.app/devices/\(Self.token)",
        ])
        #expect(read.status == 404 && read.body.contains("unknown-device"), "\(read)")
        let restarted = again.stop(interrupt: true)
        #expect(restarted.status == 0 && restarted.stdout.hasSuffix("herald gateway: stopped\n"), "\(restarted)")
        #expect(!restarted.stderr.contains("admin API key"), "\(restarted.stderr)")
        #expect(try String(contentsOfFile: keyPath, encoding: .utf8) == secret)
        #expect(stat(keyPath, &status) == 0)
        #expect(status.st_mtim.tv_sec == modified.tv_sec && status.st_mtim.tv_nsec == modified.tv_nsec)
    }

    @Test func aRegisterKeyRegistersOverBothProtocolsUntilRevoked() throws {
        let scratch = try GatewayScratch()
        let gateway = try GatewayProcess(["--data-dir", scratch.dataDirectory] + scratch.appFlags)
        defer { _ = gateway.stop() }

        // Made while the gateway runs: the store takes turns.
        let created = try scratch.key([
            "create", "--scope", "register", "--name", "ios-app", "--topic", "com.example.app",
        ])
        #expect(created.status == 0, "\(created)")
        let secret = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(secret.hasPrefix("hk_") && created.stdout.split(separator: "\n").count == 1, "\(created.stdout)")
        #expect(created.stderr.contains("created register key key_"), "\(created.stderr)")

        for (flag, version) in [("--http1.1", "1.1"), ("--http2-prior-knowledge", "2")] {
            let put = try Curl.run([
                flag, "-X", "PUT", "-H", "authorization: Bearer \(secret)", "-H", "content-type: application/json",
                "--data", #"{"user":"alice","tags":["beta"]}"#,
                gateway.url + "/v1/apps/com.example.app/devices/\(Self.token)",
            ])
            #expect(put.status == 200 && put.version == version, "\(put)")
            #expect(put.body.contains(#""user":"alice""#) && put.body.contains(#""status":"active""#), "\(put.body)")
        }
        // A register key may not read devices: 403.
        let read = try Curl.run([
            "-H", "authorization: Bearer \(secret)", gateway.url + "/v1/apps/com.example.app/devices/\(Self.token)",
        ])
        #expect(read.status == 403, "\(read)")

        let list = try scratch.key(["list"])
        #expect(list.status == 0)
        let lines = list.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("ID") == true && lines.count == 3, "\(list.stdout)")  // header, admin, ios-app
        let row = try #require(lines.first { $0.contains("ios-app") })
        #expect(row.contains("register") && row.contains("com.example.app") && row.hasSuffix("-"), "\(row)")
        #expect(!list.stdout.contains("hk_"), "never a secret")
        let id = String(row.prefix { $0 != " " })

        let json = try scratch.key(["list", "--json"])
        JSONFieldsTests.check(
            "gateway-key", try JSONFieldsTests.lines(json.stdout), against: try JSONFieldsTests.documented())
        let objects = try json.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let registerKey = try #require(objects.first { $0["id"] as? String == id })
        #expect(Set(registerKey.keys) == ["id", "name", "scope", "app", "created-at", "revoked-at"])
        #expect(registerKey["scope"] as? String == "register" && registerKey["app"] as? String == "com.example.app")
        #expect(registerKey["revoked-at"] is NSNull)
        #expect(objects.first { $0["scope"] as? String == "admin" }?["app"] is NSNull)

        let revoked = try scratch.key(["revoke", id])
        #expect(revoked.status == 0 && revoked.stdout == "herald gateway: revoked \(id)\n", "\(revoked)")
        let refused = try Curl.run([
            "-X", "PUT", "-H", "authorization: Bearer \(secret)",
            gateway.url + "/v1/apps/com.example.app/devices/\(Self.token)",
        ])
        #expect(refused.status == 401 && refused.body.contains("unauthorized"), "\(refused)")
        let again = try scratch.key(["revoke", id])
        #expect(again.status == 1 && again.stderr.contains("no key '\(id)'"), "\(again)")
        let listed = try scratch.key(["list"])
        #expect(
            listed.stdout.split(separator: "\n").first { $0.contains(id) }?.hasSuffix("Z") == true, "\(listed.stdout)")
    }

    @Test func aConfigFileServesTwoAppsWithTheirEnvironments() throws {
        let scratch = try GatewayScratch()
        let authority = try CertificateAuthority.generate(commonName: "Test CA")
        let (certificate, key) = try authority.issue(commonName: "com.example.other", isClient: true)
        try scratch.write("push.pem", try certificate.pem())
        try scratch.write("push-key.pem", try key.pkcs8PEM())
        let config = try scratch.write(
            "gateway.json",
            """
            {"apps": [
              {"bundle-id": "com.example.app", "auth-key": "AuthKey.p8", "key-id": "ABC123DEFG", "team-id": "DEF123GHIJ",
               "environments": {"sandbox": {}, "production": {}}},
              {"bundle-id": "com.example.other",
               "environments": {"sandbox": {"cert": "push.pem", "cert-key": "push-key.pem",
                                            "endpoint": "https://127.0.0.1:9"}}}
            ]}
            """)
        let gateway = try GatewayProcess(["--data-dir", scratch.dataDirectory, "--config", config])
        defer { _ = gateway.stop() }
        let created = try scratch.key(["create", "--scope", "register"])
        let secret = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)

        func put(_ app: String, _ environment: String) throws -> (status: Int, body: String) {
            let run = try Curl.run([
                "-X", "PUT", "-H", "authorization: Bearer \(secret)", "--data", #"{"environment":"\#(environment)"}"#,
                gateway.url + "/v1/apps/\(app)/devices/\(Self.token)",
            ])
            return (run.status, run.body)
        }
        #expect(try put("com.example.app", "sandbox").status == 200)
        #expect(try put("com.example.app", "production").status == 200)
        #expect(try put("com.example.other", "sandbox").status == 200)
        let wrong = try put("com.example.other", "production")
        #expect(wrong.status == 400 && wrong.body.contains(#""field":"environment""#), "\(wrong)")
        #expect(try put("com.example.unknown", "sandbox").status == 404)
    }

    @Test(arguments: [("--http1.1", "1.1"), ("--http2", "2")])
    func theAPIOverTLSSpeaksWhatALPNChooses(_ flag: String, _ version: String) throws {
        let scratch = try GatewayScratch()
        let authority = try CertificateAuthority.generate(commonName: "Gateway Test CA")
        let (certificate, key) = try authority.issue(commonName: "localhost", subjectAlternativeNames: ["localhost"])
        let ca = try scratch.write("ca.pem", try authority.certificate.pem())
        let cert = try scratch.write("server.pem", try certificate.pem() + authority.certificate.pem())
        let keyFile = try scratch.write("server-key.pem", try key.pkcs8PEM())
        let gateway = try GatewayProcess(
            ["--data-dir", scratch.dataDirectory, "--tls-cert", cert, "--tls-key", keyFile] + scratch.appFlags)
        #expect(gateway.firstLine.contains("listening on https://127.0.0.1:"), "\(gateway.firstLine)")
        let run = try Curl.run([
            flag, "--cacert", ca, "--resolve", "localhost:\(gateway.port):127.0.0.1",
            "https://localhost:\(gateway.port)/healthz",
        ])
        #expect(run.status == 200 && run.version == version && run.body == #"{"status":"ok"}"#, "\(run)")
        let plain = try Curl.run(["--http1.1", gateway.url + "/healthz"])
        #expect(plain.status != 200, "plain HTTP is not served on a TLS port: \(plain)")
        #expect(gateway.stop().status == 0)
    }
}
