import Foundation
import HTTP2
import HeraldCLI
import Keys
import Synchronization
import Testing

/// `herald send --requests` through the real HTTP/2 transport (the bulk path, `sendEach`) to a
/// local h2c server: bad lines are reported with their numbers, every line is in the summary.
@Suite(.timeLimit(.minutes(1)))
struct BulkSendEndToEndTests {
    static let live = String(repeating: "ab", count: 32)
    static let dead = "dead" + String(repeating: "ab", count: 30)

    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    func herald(_ arguments: [String]) async -> Run {
        let out = Mutex("")
        let err = Mutex("")
        var context = CommandContext.system
        context.standardOutput = { text in out.withLock { $0 += text } }
        context.standardError = { text in err.withLock { $0 += text } }
        context.onInterrupt = { _ in }  // the test process keeps its own signal handling
        let status = await runHerald(arguments, context: context)
        return Run(status: status, stdout: out.withLock { $0 }, stderr: err.withLock { $0 })
    }

    /// Lines: valid, blank, bad token, dead token (410), not JSON, valid with headers, then
    /// `extra` valid ones.
    static func requests(extra: Int) -> String {
        let payload = #"{"aps":{"alert":"Hi"}}"#
        var lines = [
            #"{"token":"\#(live)","payload":\#(payload)}"#,
            "",
            #"{"token":"zz","payload":\#(payload)}"#,
            #"{"token":"\#(dead)","payload":\#(payload)}"#,
            "not json",
            #"{"token":"\#(live)","payload":\#(payload),"apns-priority":5,"apns-push-type":"alert"}"#,
        ]
        lines += Array(repeating: #"{"token":"\#(live)","payload":\#(payload)}"#, count: extra)
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(arguments: [(extra: 200, concurrency: 16, json: false), (extra: 50, concurrency: 1, json: true)])
    func everyLineIsAccountedFor(_ extra: Int, _ concurrency: Int, _ json: Bool) async throws {
        let loops = try EventLoopGroup(loopCount: 1, name: "bulk-e2e")
        let handler = RecordingHandler()
        let server = try await HTTP2Server.start(
            configuration: HTTP2Server.Configuration(loops: loops), handler: handler)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-bulk-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = directory + "/requests.ndjson"
        try Data(Self.requests(extra: extra).utf8).write(to: URL(fileURLWithPath: file))
        let p8 = directory + "/AuthKey.p8"
        try Data(try P256PrivateKey.generate().pkcs8PEM().utf8).write(to: URL(fileURLWithPath: p8))

        let run = await herald(
            [
                "send", "--endpoint", "http://127.0.0.1:\(server.port)", "--auth-key", p8, "--key-id", "ABC123DEFG",
                "--team-id", "DEF123GHIJ", "--topic", "com.example.app", "--requests", file,
                "--concurrency", String(concurrency),
            ] + (json ? ["--json"] : []))

        let sent = extra + 3
        #expect(run.status == 1, "a dead token and two bad lines fail the run")
        #expect(handler.seen.withLock { $0.count } == sent, "bad lines are not sent")
        #expect(run.stderr.contains("line 3: "), "the bad token is named by its line: \(run.stderr)")
        #expect(run.stderr.contains("line 5: "), "so is the line that is not JSON")
        #expect(!run.stderr.contains("line 2"), "a blank line is skipped")
        let results = run.stdout.split(separator: "\n").filter { !$0.hasPrefix(#"{"summary""#) }
        #expect(results.count == sent, "one result line per notification sent")
        if json {
            #expect(results.filter { $0.contains(#""status":200"#) }.count == sent - 1)
            #expect(run.stdout.contains(#""failed":3"#) && run.stdout.contains(#""succeeded":\#(sent - 1)"#))
            #expect(run.stdout.contains(#""total":\#(sent + 2)"#), "the summary counts every line")
        } else {
            #expect(results.filter { $0.hasPrefix("\(Self.live) 200 ") }.count == sent - 1)
            #expect(results.filter { $0.hasPrefix("\(Self.dead) 410 ") && $0.contains(" Unregistered (since ") }.count == 1)
            #expect(
                run.stderr.contains("\(sent) sent (reached APNs): \(sent - 1) accepted, 1 rejected; 2 not sent"),
                "\(run.stderr)")
            #expect(run.stderr.contains("2 invalid request line") && run.stderr.contains("1 Unregistered"))
        }
        await server.shutdown()
        await loops.shutdown()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A line over 1 MiB (2 MiB here) in the middle of a file is reported with its number and
    /// skipped in bounded memory; the lines after it are sent (it used to end the run).
    @Test func aLineOverOneMiBIsSkippedAndTheRestAreSent() async throws {
        let loops = try EventLoopGroup(loopCount: 1, name: "bulk-e2e")
        let handler = RecordingHandler()
        let server = try await HTTP2Server.start(
            configuration: HTTP2Server.Configuration(loops: loops), handler: handler)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-bulk-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let good = #"{"token":"\#(Self.live)","payload":{"aps":{"alert":"Hi"}}}"#
        let huge =
            #"{"token":"\#(Self.live)","payload":{"aps":{"alert":""# + String(repeating: "x", count: 2 << 20) + #""}}}"#
        let file = directory + "/requests.ndjson"
        try Data(([good, good, huge] + Array(repeating: good, count: 5)).joined(separator: "\n").utf8)
            .write(to: URL(fileURLWithPath: file))
        let p8 = directory + "/AuthKey.p8"
        try Data(try P256PrivateKey.generate().pkcs8PEM().utf8).write(to: URL(fileURLWithPath: p8))

        let run = await herald([
            "send", "--endpoint", "http://127.0.0.1:\(server.port)", "--auth-key", p8, "--key-id", "ABC123DEFG",
            "--team-id", "DEF123GHIJ", "--topic", "com.example.app", "--requests", file,
        ])
        #expect(run.status == 1)
        #expect(handler.seen.withLock { $0.count } == 7, "every line but the long one is sent")
        #expect(run.stderr.contains("line 3: longer than 1048576 bytes, skipped"), "\(run.stderr)")
        #expect(run.stderr.contains("7 sent (reached APNs): 7 accepted, 0 rejected; 1 not sent"), "\(run.stderr)")
        #expect(!run.stderr.contains("the lines before it were sent"))
        await server.shutdown()
        await loops.shutdown()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
