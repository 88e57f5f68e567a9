import APNs
import Foundation
import HTTP2
import HeraldCLI
import HeraldTestSupport
import Keys
import Synchronization
import Testing

/// `herald emulator`'s bounds and control token: parsed, checked, and in force.
@Suite(.timeLimit(.minutes(1)))
struct EmulatorBoundsOptionsTests {
    static func options(_ extra: [String], environment: [String: String] = [:]) throws(UsageError) -> EmulatorOptions? {
        guard case .emulator(let options) = try parseCommandLine(["emulator"] + extra, environment: environment) else {
            return nil
        }
        return options
    }

    @Test func theBoundsAreParsed() throws {
        let options = try #require(
            try Self.options([
                "--first-request-timeout", "0", "--max-connections", "50", "--fault-limit", "7",
                "--unregistered-limit", "9", "--control-token", "abc.DEF-123",
            ]))
        #expect(options.firstRequestTimeoutSeconds == 0)
        #expect(options.maximumConnections == 50)
        #expect(options.faultLimit == 7)
        #expect(options.unregisteredLimit == 9)
        #expect(options.controlToken == "abc.DEF-123")
        let defaults = try #require(try Self.options([]))
        #expect(defaults.firstRequestTimeoutSeconds == nil && defaults.maximumConnections == nil)
        #expect(defaults.faultLimit == nil && defaults.unregisteredLimit == nil && defaults.controlToken == nil)
    }

    @Test func theConsoleListensWhereAsked() throws {
        #expect(try Self.options(["--console", "127.0.0.1:0"])?.console == .init(host: "127.0.0.1", port: 0))
        #expect(try Self.options(["--console", "[::1]:8443"])?.console == .init(host: "::1", port: 8443))
        #expect(try Self.options([])?.console == nil)
    }

    @Test func theControlTokenMayComeFromTheEnvironment() throws {
        let options = try #require(try Self.options([], environment: ["HERALD_CONTROL_TOKEN": "from-env"]))
        #expect(options.controlToken == "from-env")
    }

    @Test(arguments: [
        (["--max-connections", "0"], "--max-connections"),
        (["--first-request-timeout", "-1"], "--first-request-timeout"),
        (["--fault-limit", "x"], "--fault-limit"),
        (["--unregistered-limit", "-5"], "--unregistered-limit"),
        (["--control-token", "has space"], "--control-token"),
        (["--control-token", "a", "--control-token-file", "f"], "--control-token"),
        (["--console", "8080"], "--console"),
        (["--console", "127.0.0.1:99999"], "--console"),
    ])
    func badValuesNameTheOption(_ extra: [String], _ option: String) {
        do throws(UsageError) {
            _ = try Self.options(extra)
            Issue.record("\(extra) was accepted")
        } catch {
            guard case .invalidValue(let named, _, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(named == option)
        }
    }

    /// Runs `herald emulator` with `extra` until `body` returns; its standard error.
    static func withEmulator(_ extra: [String], _ body: (Int) async throws -> Void) async throws -> String {
        let port = Promise<Int>()
        let stop = Promise<Bool>()
        let errors = Mutex("")
        var context = CommandContext.system
        context.standardOutput = { _ in }
        context.standardError = { text in errors.withLock { $0 += text } }
        context.onListening = { port.fulfil($0) }
        context.waitForTermination = { _ = await stop.value }
        let emulator = Task {
            await runHerald(["emulator", "--plaintext", "--in-memory"] + extra, context: context)
        }
        do {
            try await body(await port.value)
        } catch {
            stop.fulfil(true)
            _ = await emulator.value
            throw error
        }
        stop.fulfil(true)
        #expect(await emulator.value == 0, "\(errors.withLock { $0 })")
        return errors.withLock { $0 }
    }

    static func status(port: Int, authorization: String? = nil) async throws -> Int {
        let loop = try EventLoop(name: "control-token")
        let result = await sendOne(
            on: loop, .init(host: "127.0.0.1", port: port, tls: nil), path: "/control/v1/stats", method: "GET",
            body: [],
            headers: authorization.map { [("authorization", $0)] } ?? [])
        await loop.shutdown()
        return try result.get().status
    }

    @Test func anUnauthenticatedControlAPIBeyondLoopbackIsWarnedAbout() async throws {
        let warned = try await Self.withEmulator(["--listen", "0.0.0.0:0"]) { port throws in
            let status = try await Self.status(port: port)
            #expect(status == 200)
        }
        #expect(warned.contains("warning: listening on 0.0.0.0"))
        #expect(warned.contains("--control-token"))
        let quiet = try await Self.withEmulator(["--listen", "127.0.0.1:0"]) { _ in }
        #expect(quiet.isEmpty, "loopback: \(quiet)")
    }

    @Test func aControlTokenFileGuardsTheControlAPIAndSilencesTheWarning() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("herald-token-\(UUID().uuidString)")
            .path
        try Data("file-secret\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let errors = try await Self.withEmulator(["--listen", "0.0.0.0:0", "--control-token-file", path]) {
            port throws in
            let refused = try await Self.status(port: port)
            let allowed = try await Self.status(port: port, authorization: "bearer file-secret")
            #expect(refused == 401 && allowed == 200)
        }
        #expect(errors.isEmpty, "\(errors)")
    }

    /// `--strict-tokens` reaches the emulator (a second, shadowing configuration used to drop it).
    @Test func strictTokensAreInForce() async throws {
        let key = try P256PrivateKey.generate()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("herald-key-\(UUID().uuidString).p8")
            .path
        try Data(try key.pkcs8PEM().utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bearer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
            .sign(issuedAt: Int(Date().timeIntervalSince1970))
        let credentials = ["--auth-key", path, "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"]
        _ = try await Self.withEmulator(["--listen", "127.0.0.1:0", "--strict-tokens"] + credentials) { port throws in
            let loop = try EventLoop(name: "strict-tokens")
            let result = await sendOne(
                on: loop, .init(host: "127.0.0.1", port: port, tls: nil),
                path: "/3/device/" + String(repeating: "ab", count: 32),
                headers: [("authorization", bearer.authorization), ("apns-topic", "com.example.app")])
            await loop.shutdown()
            let response = try result.get()
            #expect(response.status == 400, "an unknown token is refused in strict mode")
            #expect(String(decoding: response.body, as: UTF8.self).contains("BadDeviceToken"))
        }
    }
}
