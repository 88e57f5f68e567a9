import APNs
import APNsClient
import Foundation
import HTTP2
import HeraldCLI
import HeraldTestSupport
import Keys
import Synchronization
import Testing

/// Runs `herald` commands in memory: captured output, an in-memory file system and a fixed clock.
final class FakeProcess: Sendable {
    /// The transport `herald send` gets: answers by token, 200 unless listed.
    let transport: FakeTransport
    private let output = Mutex("")
    private let errors = Mutex("")
    private let files: Mutex<[String: [UInt8]]>
    let stdin: [UInt8]

    init(files: [String: String] = [:], stdin: String = "", answers: [String: (Int, String)] = [:]) {
        self.transport = FakeTransport(answers: answers)
        self.files = Mutex(files.mapValues { Array($0.utf8) })
        self.stdin = Array(stdin.utf8)
    }

    var stdout: String { output.withLock { $0 } }
    var stderr: String { errors.withLock { $0 } }
    func file(_ path: String) -> String? { files.withLock { $0[path].map { String(decoding: $0, as: UTF8.self) } } }

    func run(_ arguments: [String]) async -> Int32 {
        let context = CommandContext(
            standardOutput: { text in self.output.withLock { $0 += text } },
            standardError: { text in self.errors.withLock { $0 += text } },
            readStandardInput: { () throws(InputError) in self.stdin },
            readFile: { (path: String) throws(InputError) in
                if let bytes = self.files.withLock({ $0[path] }) { return bytes }
                throw InputError("cannot read '\(path)': No such file or directory")
            },
            writeFile: { (path: String, bytes: [UInt8]) throws(InputError) in self.files.withLock { $0[path] = bytes } },
            now: { 1_767_225_600 },
            openLines: { (path: String) throws(InputError) -> any LineReader in
                guard let bytes = self.files.withLock({ $0[path] }) else { throw InputError("cannot read '\(path)'") }
                return MemoryLineReader(String(decoding: bytes, as: UTF8.self))
            },
            makeTransport: { [transport] (_: TransportConfiguration) throws(APNsClientError) -> any APNsTransport in transport })
        return await runHerald(arguments, context: context)
    }
}

/// Answers 200, or the status and reason listed for the request's token; records requests.
final class FakeTransport: APNsTransport {
    let answers: [String: (Int, String)]
    private let seen = AnnotatedMutex<[APNsRequest]>([])

    init(answers: [String: (Int, String)]) {
        self.answers = answers
    }

    var requests: [APNsRequest] { seen.withLock { $0 } }
    var connectionCount: Int { 1 }

    func perform(_ request: APNsRequest, timeout: Duration) async -> Result<RawResponse, APNsClientError> {
        seen.withLock { $0.append(request) }
        let token = String(request.header(":path")?.split(separator: "/").last ?? "")
        if let (status, reason) = answers[token] {
            return .success(RawResponse(status: status, apnsID: request.apnsID, body: Array(#"{"reason":"\#(reason)"}"#.utf8)))
        }
        return .success(RawResponse(status: 200, apnsID: request.apnsID))
    }

    func shutdown() async {}
}

@Suite(.timeLimit(.minutes(1)))
struct SendCommandTests {
    static let token1 = String(repeating: "a1", count: 32)
    static let token2 = String(repeating: "b2", count: 32)
    static let key: String = (try? P256PrivateKey.generate().pkcs8PEM()) ?? ""
    static let auth = ["--auth-key", "k.p8", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ", "--topic", "com.example.app"]

    @Test func sendsOnePayloadToEachToken() async throws {
        let process = FakeProcess(files: ["k.p8": Self.key], answers: [Self.token2: (410, "Unregistered")])
        let status = await process.run(["send"] + Self.auth + ["-t", Self.token1, "-t", Self.token2, "--title", "Hi", "--body", "There"])
        #expect(status == 1, "one token failed")
        let requests = process.transport.requests
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { $0.header("authorization")?.hasPrefix("bearer ") == true })
        #expect(requests.allSatisfy { $0.header("apns-topic") == "com.example.app" && $0.header("apns-push-type") == "alert" })
        let payload = try JSONValue(parsing: requests[0].body)
        #expect(payload.isEquivalent(to: ["aps": ["alert": ["title": "Hi", "body": "There"]]]))
        #expect(process.stdout.contains("\(Self.token1) 200 \(requests.first { $0.header(":path")!.hasSuffix(Self.token1) }!.apnsID)"))
        #expect(process.stdout.contains("\(Self.token2) 410 "))
        #expect(process.stdout.contains(" Unregistered"))
        #expect(process.stderr.contains("2 sent (reached APNs): 1 accepted, 1 rejected; 0 not sent\n"))
        #expect(process.stderr.contains("rejected by APNs:\n  1 Unregistered: The device token is inactive"))
        #expect(!process.stderr.contains("PRIVATE KEY"))
    }

    @Test func lintErrorsStopTheSendUnlessForced() async {
        let process = FakeProcess(files: ["k.p8": Self.key, "p.json": #"{"aps":{"content-available":1}}"#])
        let arguments = ["send"] + Self.auth + ["-t", Self.token1, "--type", "background", "--priority", "10", "p.json"]
        #expect(await process.run(arguments) == 1)
        #expect(process.stderr.contains("APS-BG-PRIORITY"))
        #expect(process.transport.requests.isEmpty)
        let forced = FakeProcess(files: ["k.p8": Self.key, "p.json": #"{"aps":{"content-available":1}}"#])
        #expect(await forced.run(arguments + ["--force"]) == 0)
        #expect(forced.transport.requests.first?.header("apns-priority") == "10")
    }

    @Test func dryRunSendsNothing() async {
        let process = FakeProcess(files: ["k.p8": Self.key])
        #expect(await process.run(["send"] + Self.auth + ["-t", Self.token1, "--alert", "Hi", "--dry-run"]) == 0)
        #expect(process.transport.requests.isEmpty)
        #expect(process.stdout.contains("POST https://api.sandbox.push.apple.com/3/device/\(Self.token1)"))
        #expect(process.stdout.contains("authorization: bearer <provider token>"))
    }

    @Test func bulkAccountsForEveryLine() async throws {
        let lines = [
            #"{"token":"\#(Self.token1)","payload":{"aps":{"alert":"one"}}}"#,
            #"{"token":"\#(Self.token2)","payload":{"aps":{"alert":"two"}},"apns-priority":5}"#,
            #"not json"#,
            "",
            #"{"token":"zz","payload":{"aps":{"alert":"bad token"}}}"#,
            #"{"token":"\#(Self.token1)","payload":{"aps":{"content-available":1}},"apns-push-type":"background","apns-priority":5,"apns-topic":"com.example.other"}"#,
        ].joined(separator: "\n")
        let process = FakeProcess(files: ["k.p8": Self.key, "r.ndjson": lines], answers: [Self.token2: (400, "BadDeviceToken")])
        #expect(await process.run(["send"] + Self.auth + ["--requests", "r.ndjson"]) == 1)
        let requests = process.transport.requests
        #expect(requests.count == 3)
        #expect(requests.contains { $0.header("apns-priority") == "5" })
        #expect(requests.contains { $0.header("apns-push-type") == "background" && $0.header("apns-topic") == "com.example.other" })
        #expect(process.stderr.contains("line 3: invalid JSON"))
        #expect(process.stderr.contains("line 5: token:"))
        #expect(process.stderr.contains("3 sent (reached APNs): 2 accepted, 1 rejected; 2 not sent"), "\(process.stderr)")
        #expect(process.stderr.contains("\n  2 invalid request line: lines of --requests refused before sending"))
        #expect(
            process.stderr.contains(
                "rejected by APNs:\n  1 BadDeviceToken: The device token is invalid, or is for the other environment"
                    + " (sandbox/production). Probably a token of the other environment (sandbox vs production)"))
    }

    @Test(arguments: [
        (["send", "-t", "ab"], "--auth-key"),
        (["send", "--auth-key", "k.p8", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ", "--alert", "x"], "--token"),
        (["send", "--cert", "c.p12", "--auth-key", "k.p8", "-t", "ab", "--alert", "x"], "--cert"),
        (["send", "--cert", "c.p12", "-t", "ab", "--alert", "x", "--production", "--sandbox"], "cannot be combined"),
        (["send", "--cert", "c.p12", "-t", "ab", "--alert", "x", "--connections", "0"], "--connections"),
        (["send", "--cert", "c.p12", "-t", "ab", "--alert", "x", "--badge", "-1"], "--badge"),
        (["send", "--cert", "c.p12", "-t", "ab", "--requests", "r", "--alert", "x"], "--requests"),
    ] as [([String], String)])
    func usageErrors(_ arguments: [String], _ expected: String) async {
        let process = FakeProcess()
        #expect(await process.run(arguments) == 2)
        #expect(process.stderr.contains(expected), "\(process.stderr)")
    }

    @Test func badTokenAndUnreadableKeyAreOneLineErrors() async {
        let badToken = FakeProcess(files: ["k.p8": Self.key])
        #expect(await badToken.run(["send"] + Self.auth + ["-t", "xyz", "--alert", "Hi"]) == 2, "a wrong command line")
        #expect(
            badToken.stderr.hasPrefix(
                "herald send: --token 'xyz' has 'x' at position 1; a device token is hexadecimal digits only"),
            "\(badToken.stderr)")
        let noKey = FakeProcess()
        #expect(await noKey.run(["send"] + Self.auth + ["-t", Self.token1, "--alert", "Hi"]) == 1)
        #expect(noKey.stderr.hasPrefix("herald send: --auth-key: cannot read 'k.p8'"))
    }
}

@Suite(.timeLimit(.minutes(1)))
struct RunTests {
    @Test func lintCleanPayloadExitsZero() async {
        let process = FakeProcess(files: ["p.json": #"{"aps":{"alert":"Hello"}}"#])
        #expect(await process.run(["lint", "p.json"]) == 0)
        #expect(process.stdout.contains("push type alert inferred"))
        #expect(process.stdout.contains("ok: no findings (payload 25 of 4096 bytes)"))
        #expect(process.stderr.isEmpty)
    }

    @Test func lintPrintsTheIssuesExampleLine() async {
        let process = FakeProcess(files: ["p.json": #"{"aps":{"content-available":1}}"#])
        #expect(await process.run(["lint", "--type", "background", "--priority", "10", "p.json"]) == 1)
        let lines = process.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("error  APS-BG-PRIORITY  apns-priority: background pushes must use priority 5, not 10"))
        #expect(lines.last?.hasPrefix("1 error, 0 warnings, 0 info") == true)
    }

    @Test func lintWarningsAloneExitZero() async {
        let process = FakeProcess(stdin: #"{"aps":{"alert":"Hi","custom":1}}"#)
        #expect(await process.run(["lint", "-"]) == 0)
        #expect(process.stdout.contains("warning APS-UNKNOWN-KEY  aps.custom"))
    }

    @Test func lintJSONOutput() async throws {
        let process = FakeProcess(stdin: #"{"aps":{"badge":"3"}}"#)
        #expect(await process.run(["lint", "--json", "--type", "alert", "-"]) == 1)
        let output = try JSONValue(parsing: process.stdout)
        let findings = try #require(output["findings"]?.arrayValue)
        let first = try #require(findings.first)
        #expect(first["rule"] == "APS-TYPE")
        #expect(first["severity"] == "error")
        #expect(first["path"] == "aps.badge")
        #expect(first["message"]?.stringValue?.contains("\"3\"") == true)
        #expect(output["push-type"] == "alert")
        #expect(output["push-type-inferred"] == false)
    }

    @Test func lintSimulatorAndBroadcastDestinations() async {
        let simulator = FakeProcess(stdin: #"{"aps":{"alert":"Hi"}}"#)
        #expect(await simulator.run(["lint", "--simulator", "-"]) == 1)
        #expect(simulator.stdout.contains("SIM-TARGET-BUNDLE"))

        let broadcast = FakeProcess(stdin: #"{"aps":{"event":"start","timestamp":1,"content-state":{},"attributes-type":"A","attributes":{},"alert":{"title":"t","body":"b"}}}"#)
        #expect(await broadcast.run(["lint", "--broadcast", "-"]) == 1)
        #expect(broadcast.stdout.contains("BCAST-START"))
    }

    /// Bad input to every command: one line on stderr naming the problem, exit 1 or 2, no crash.
    @Test(arguments: [
        (["lint", "missing.json"], Int32(1), "cannot read 'missing.json'"),
        (["lint", "bad.json"], Int32(1), "PAYLOAD-JSON"),
        (["lint", "--prio", "5", "x.json"], Int32(2), "unknown option '--prio' (did you mean '--priority'?)"),
        (["lint"], Int32(2), "missing argument FILE"),
        (["lnt", "x"], Int32(2), "unknown command 'lnt' (did you mean 'lint'?)"),
        (["jwt", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"], Int32(2), "--auth-key"),
        (["jwt", "--auth-key", "missing.p8", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"], Int32(1), "missing.p8"),
        (["jwt", "--auth-key", "bad.json", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"], Int32(1), "no PEM private key"),
        (["jwt", "--auth-key", "x", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ", "--issued-at", "soon"], Int32(2), "--issued-at"),
        (["simulator-file", "--bundle", "com.example.app", "bad.json"], Int32(1), "invalid JSON at line 1"),
        (["simulator-file", "--bundle", "com.example.app", "array.json"], Int32(1), "not an object"),
        (["simulator-file", "--bundle", "com example", "array.json"], Int32(2), "--topic 'com example' is not a bundle id"),
        (["simulator-file", "missing.json"], Int32(2), "missing required option --topic"),
        (["simulator-file", "--bundle", "com.example.app", "nope.json"], Int32(1), "cannot read 'nope.json'"),
    ] as [([String], Int32, String)])
    func badInputGivesOneLineError(_ arguments: [String], _ status: Int32, _ expected: String) async {
        let process = FakeProcess(files: ["bad.json": "{\"aps\":", "array.json": "[1,2]", "x.json": "{}"])
        #expect(await process.run(arguments) == status)
        let message = process.stderr + process.stdout
        #expect(message.contains(expected), "\(message)")
        if status == 2 || !process.stderr.isEmpty {
            #expect(process.stderr.split(separator: "\n").count == 1, "\(process.stderr)")
        }
    }

    @Test func jwtPrintsAVerifiableTokenAndNeverTheKey() async throws {
        let key = try P256PrivateKey.generate()
        let pem = try key.pkcs8PEM()
        let process = FakeProcess(files: ["AuthKey.p8": pem])
        #expect(await process.run(["jwt", "--auth-key", "AuthKey.p8", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ", "--issued-at", "1767225000"]) == 0)
        let token = process.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let verifier = ProviderTokenVerifier(keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)])
        #expect(try verifier.verify(token: token, now: 1_767_225_600).issuedAt == 1_767_225_000)
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }
        #expect(body.allSatisfy { !process.stdout.contains($0) && !process.stderr.contains($0) })
    }

    @Test func jwtDefaultsToNow() async throws {
        let key = try P256PrivateKey.generate()
        let process = FakeProcess(files: ["k.p8": try key.pkcs8PEM()])
        #expect(await process.run(["jwt", "--auth-key", "k.p8", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"]) == 0)
        let verifier = ProviderTokenVerifier(keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)])
        #expect(try verifier.verify(token: process.stdout.trimmingCharacters(in: .whitespacesAndNewlines), now: 1_767_225_600).issuedAt == 1_767_225_600)
    }

    @Test func jwtRejectsBadIdentifiersWithoutEchoingSecrets() async throws {
        let key = try P256PrivateKey.generate()
        let process = FakeProcess(files: ["k.p8": try key.pkcs8PEM()])
        #expect(await process.run(["jwt", "--auth-key", "k.p8", "--key-id", "short", "--team-id", "DEF123GHIJ"]) == 2)
        #expect(process.stderr.hasPrefix("herald jwt: --key-id must be 10 letters or digits"), "\(process.stderr)")
    }

    @Test func simulatorFileWrapsAndLintsClean() async throws {
        let process = FakeProcess(files: ["p.json": #"{"aps":{"alert":"Hi"},"id":7}"#])
        #expect(await process.run(["simulator-file", "--bundle", "com.example.app", "--output", "out.apns", "p.json"]) == 0)
        let written = try #require(process.file("out.apns"))
        let value = try JSONValue(parsing: written)
        #expect(value.isEquivalent(to: ["aps": ["alert": "Hi"], "id": 7, "Simulator Target Bundle": "com.example.app"]))
        let check = FakeProcess(files: ["out.apns": written])
        #expect(await check.run(["lint", "--simulator", "out.apns"]) == 0)
    }

    @Test func simulatorFileRefusesOversizedPayloads() async {
        let big = #"{"aps":{"alert":""# + String(repeating: "x", count: 4100) + #""}}"#
        let process = FakeProcess(files: ["p.json": big])
        #expect(await process.run(["simulator-file", "--bundle", "com.example.app", "p.json"]) == 1)
        #expect(process.stderr.contains("PAYLOAD-TOO-LARGE"))
        #expect(process.stdout.isEmpty)
    }

    @Test func helpAndVersion() async {
        let help = FakeProcess()
        #expect(await help.run(["--help"]) == 0)
        #expect(help.stdout.contains("lint"))
        let version = FakeProcess()
        #expect(await version.run(["--version"]) == 0)
        #expect(version.stdout == "herald \(heraldVersion)\n")
    }
}

/// The real binary: exit codes through `main.swift` and the process's own streams.
@Suite(.timeLimit(.minutes(1)))
struct BinaryTests {
    static let binary: String? = {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [directory, directory.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("herald").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }()

    func run(_ arguments: [String], stdin: String = "") throws -> (status: Int32, stdout: String, stderr: String) {
        let process = try ChildProcess(
            try #require(Self.binary, "herald binary next to the test bundle"), arguments, stdin: .pipe)
        process.standardInput?.write(Data(stdin.utf8))
        try process.standardInput?.close()
        let status = process.waitUntilExit()
        let out = process.waitForCapturedOutput()
        let err = process.waitForCapturedErrors()
        return (status, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    @Test func exitCodesFromTheRealProcess() async throws {
        #expect(try run(["lint", "-"], stdin: #"{"aps":{"alert":"Hi"}}"#).status == 0)
        #expect(try run(["lint", "-"], stdin: "not json").status == 1)
        let usage = try run(["lint", "--nope"])
        #expect(usage.status == 2)
        #expect(usage.stderr.hasPrefix("herald lint: unknown option '--nope'"))
        let missing = try run(["lint", "/nonexistent/p.json"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "herald lint: cannot read '/nonexistent/p.json': No such file or directory\n")
    }
}
