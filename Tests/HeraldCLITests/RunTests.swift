import APNs
import Foundation
import HeraldCLI
import Keys
import Synchronization
import Testing

/// Runs `herald` commands in memory: captured output, an in-memory file system and a fixed clock.
final class FakeProcess: Sendable {
    private let output = Mutex("")
    private let errors = Mutex("")
    private let files: Mutex<[String: [UInt8]]>
    let stdin: [UInt8]

    init(files: [String: String] = [:], stdin: String = "") {
        self.files = Mutex(files.mapValues { Array($0.utf8) })
        self.stdin = Array(stdin.utf8)
    }

    var stdout: String { output.withLock { $0 } }
    var stderr: String { errors.withLock { $0 } }
    func file(_ path: String) -> String? { files.withLock { $0[path].map { String(decoding: $0, as: UTF8.self) } } }

    func run(_ arguments: [String]) -> Int32 {
        let context = CommandContext(
            standardOutput: { text in self.output.withLock { $0 += text } },
            standardError: { text in self.errors.withLock { $0 += text } },
            readStandardInput: { () throws(InputError) in self.stdin },
            readFile: { (path: String) throws(InputError) in
                if let bytes = self.files.withLock({ $0[path] }) { return bytes }
                throw InputError("cannot read '\(path)': No such file or directory")
            },
            writeFile: { (path: String, bytes: [UInt8]) throws(InputError) in self.files.withLock { $0[path] = bytes } },
            now: { 1_767_225_600 })
        return runHerald(arguments, context: context)
    }
}

@Suite(.timeLimit(.minutes(1)))
struct RunTests {
    @Test func lintCleanPayloadExitsZero() {
        let process = FakeProcess(files: ["p.json": #"{"aps":{"alert":"Hello"}}"#])
        #expect(process.run(["lint", "p.json"]) == 0)
        #expect(process.stdout.contains("push type alert inferred"))
        #expect(process.stdout.contains("ok: no findings (payload 25 of 4096 bytes)"))
        #expect(process.stderr.isEmpty)
    }

    @Test func lintPrintsTheIssuesExampleLine() {
        let process = FakeProcess(files: ["p.json": #"{"aps":{"content-available":1}}"#])
        #expect(process.run(["lint", "--type", "background", "--priority", "10", "p.json"]) == 1)
        let lines = process.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("error  APS-BG-PRIORITY  apns-priority: background pushes must use priority 5, not 10"))
        #expect(lines.last?.hasPrefix("1 error, 0 warnings, 0 info") == true)
    }

    @Test func lintWarningsAloneExitZero() {
        let process = FakeProcess(stdin: #"{"aps":{"alert":"Hi","custom":1}}"#)
        #expect(process.run(["lint", "-"]) == 0)
        #expect(process.stdout.contains("warning APS-UNKNOWN-KEY  aps.custom"))
    }

    @Test func lintJSONOutput() throws {
        let process = FakeProcess(stdin: #"{"aps":{"badge":"3"}}"#)
        #expect(process.run(["lint", "--json", "--type", "alert", "-"]) == 1)
        let output = try JSONValue(parsing: process.stdout)
        let findings = try #require(output["findings"]?.arrayValue)
        let first = try #require(findings.first)
        #expect(first["rule"] == "APS-TYPE")
        #expect(first["severity"] == "error")
        #expect(first["path"] == "aps.badge")
        #expect(first["message"]?.stringValue?.contains("\"3\"") == true)
        #expect(output["pushType"] == "alert")
        #expect(output["pushTypeInferred"] == false)
    }

    @Test func lintSimulatorAndBroadcastDestinations() {
        let simulator = FakeProcess(stdin: #"{"aps":{"alert":"Hi"}}"#)
        #expect(simulator.run(["lint", "--simulator", "-"]) == 1)
        #expect(simulator.stdout.contains("SIM-TARGET-BUNDLE"))

        let broadcast = FakeProcess(stdin: #"{"aps":{"event":"start","timestamp":1,"content-state":{},"attributes-type":"A","attributes":{},"alert":{"title":"t","body":"b"}}}"#)
        #expect(broadcast.run(["lint", "--broadcast", "-"]) == 1)
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
        (["jwt", "--auth-key", "x", "--key-id", "K", "--team-id", "DEF123GHIJ", "--issued-at", "soon"], Int32(2), "--issued-at"),
        (["simulator-file", "--bundle", "com.example.app", "bad.json"], Int32(1), "invalid JSON at line 1"),
        (["simulator-file", "--bundle", "com.example.app", "array.json"], Int32(1), "not an object"),
        (["simulator-file", "--bundle", "com example", "array.json"], Int32(1), "--bundle"),
        (["simulator-file", "missing.json"], Int32(2), "--bundle"),
        (["simulator-file", "--bundle", "com.example.app", "nope.json"], Int32(1), "cannot read 'nope.json'"),
    ] as [([String], Int32, String)])
    func badInputGivesOneLineError(_ arguments: [String], _ status: Int32, _ expected: String) {
        let process = FakeProcess(files: ["bad.json": "{\"aps\":", "array.json": "[1,2]", "x.json": "{}"])
        #expect(process.run(arguments) == status)
        let message = process.stderr + process.stdout
        #expect(message.contains(expected), "\(message)")
        if status == 2 || !process.stderr.isEmpty {
            #expect(process.stderr.split(separator: "\n").count == 1, "\(process.stderr)")
        }
    }

    @Test func jwtPrintsAVerifiableTokenAndNeverTheKey() throws {
        let key = try P256PrivateKey.generate()
        let pem = try key.pkcs8PEM()
        let process = FakeProcess(files: ["AuthKey.p8": pem])
        #expect(process.run(["jwt", "--auth-key", "AuthKey.p8", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ", "--issued-at", "1767225000"]) == 0)
        let token = process.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let verifier = ProviderTokenVerifier(keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)])
        #expect(try verifier.verify(token: token, now: 1_767_225_600).issuedAt == 1_767_225_000)
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }
        #expect(body.allSatisfy { !process.stdout.contains($0) && !process.stderr.contains($0) })
    }

    @Test func jwtDefaultsToNow() throws {
        let key = try P256PrivateKey.generate()
        let process = FakeProcess(files: ["k.p8": try key.pkcs8PEM()])
        #expect(process.run(["jwt", "--auth-key", "k.p8", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"]) == 0)
        let verifier = ProviderTokenVerifier(keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)])
        #expect(try verifier.verify(token: process.stdout.trimmingCharacters(in: .whitespacesAndNewlines), now: 1_767_225_600).issuedAt == 1_767_225_600)
    }

    @Test func jwtRejectsBadIdentifiersWithoutEchoingSecrets() throws {
        let key = try P256PrivateKey.generate()
        let process = FakeProcess(files: ["k.p8": try key.pkcs8PEM()])
        #expect(process.run(["jwt", "--auth-key", "k.p8", "--key-id", "short", "--team-id", "DEF123GHIJ"]) == 1)
        #expect(process.stderr.contains("key id"))
        #expect(process.stderr.contains("10 letters or digits"))
    }

    @Test func simulatorFileWrapsAndLintsClean() throws {
        let process = FakeProcess(files: ["p.json": #"{"aps":{"alert":"Hi"},"id":7}"#])
        #expect(process.run(["simulator-file", "--bundle", "com.example.app", "--output", "out.apns", "p.json"]) == 0)
        let written = try #require(process.file("out.apns"))
        let value = try JSONValue(parsing: written)
        #expect(value.isEquivalent(to: ["aps": ["alert": "Hi"], "id": 7, "Simulator Target Bundle": "com.example.app"]))
        let check = FakeProcess(files: ["out.apns": written])
        #expect(check.run(["lint", "--simulator", "out.apns"]) == 0)
    }

    @Test func simulatorFileRefusesOversizedPayloads() {
        let big = #"{"aps":{"alert":""# + String(repeating: "x", count: 4100) + #""}}"#
        let process = FakeProcess(files: ["p.json": big])
        #expect(process.run(["simulator-file", "--bundle", "com.example.app", "p.json"]) == 1)
        #expect(process.stderr.contains("PAYLOAD-TOO-LARGE"))
        #expect(process.stdout.isEmpty)
    }

    @Test func helpAndVersion() {
        let help = FakeProcess()
        #expect(help.run(["--help"]) == 0)
        #expect(help.stdout.contains("lint"))
        let version = FakeProcess()
        #expect(version.run(["--version"]) == 0)
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.binary, "herald binary next to the test bundle"))
        process.arguments = arguments
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    @Test func exitCodesFromTheRealProcess() throws {
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
