import APNsClient
import Synchronization
import Testing

@testable import HeraldCLI

/// The bulk progress line on a terminal: cleared before anything else is printed and drawn again
/// after, so result lines and reports never run into it; its share is of lines (counted, or
/// estimated and marked `~`), else of bytes, labelled.
@Suite(.timeLimit(.minutes(1)))
struct BulkProgressTests {
    static let token1 = SendCommandTests.token1
    static let key = SendCommandTests.key
    static let clear = "\r\u{1B}[K"

    /// Standard output and standard error as one terminal shows them, in the order written.
    final class Terminal: Sendable {
        let screen = Mutex("")
        let errors = Mutex("")
        var text: String { screen.withLock { $0 } }
        var stderr: String { errors.withLock { $0 } }
    }

    /// Runs `arguments` with standard error on a terminal, over the fake transport.
    static func run(_ arguments: [String], files: [String: String]) async -> (Int32, Terminal) {
        let terminal = Terminal()
        let transport = FakeTransport(answers: [:])
        let context = CommandContext(
            standardOutput: { text in terminal.screen.withLock { $0 += text } },
            standardError: { text in
                terminal.screen.withLock { $0 += text }
                terminal.errors.withLock { $0 += text }
            },
            readStandardInput: { () throws(InputError) in [] },
            readFile: { (path: String) throws(InputError) in
                guard let text = files[path] else { throw InputError("cannot read '\(path)'") }
                return Array(text.utf8)
            },
            writeFile: { (_: String, _: [UInt8]) throws(InputError) in },
            now: { 1_767_225_600 },
            openLines: { (path: String) throws(InputError) -> any LineReader in
                guard let text = files[path] else { throw InputError("cannot read '\(path)'") }
                return MemoryLineReader(text)
            },
            standardErrorIsTerminal: true,
            makeTransport: { (_: TransportConfiguration) throws(APNsClientError) -> any APNsTransport in transport })
        return (await runHerald(arguments, context: context), terminal)
    }

    /// Line 2 is refused; lines 1 and 3 are sent. One at a time, so the refusal is reported while
    /// the line drawn at line 1's result is shown.
    static let file =
        [
            #"{"token":"\#(token1)","payload":{"aps":{"alert":"one"}}}"#,
            "not json",
            #"{"token":"\#(token1)","payload":{"aps":{"alert":"three"}}}"#,
        ].joined(separator: "\n") + "\n"

    /// Whether `text` draws the progress line (on a cleared line).
    static func drawsTheLine(_ text: Substring) -> Bool {
        text.contains(#/\r\x1B\[K\d+ sent, /#)
    }

    @Test func otherOutputIsWrittenAboveTheProgressLine() async throws {
        let (status, terminal) = await Self.run(
            ["send"] + SendCommandTests.auth + ["--requests", "r.ndjson", "--concurrency", "1"],
            files: ["k.p8": Self.key, "r.ndjson": Self.file])
        #expect(status == 1, "line 2 is refused")
        let screen = terminal.text
        #expect(screen.contains(Self.clear + "1 sent, "), "the line is drawn at the first result: \(screen)")
        #expect(screen.contains("33% of 3 lines"), "a share of the lines, counted ahead")

        // Other output starts on a cleared line, and the progress line comes back after it.
        let report = try #require(screen.firstRange(of: "herald send: --requests r.ndjson, line 2: "))
        #expect(
            screen[..<report.lowerBound].hasSuffix(Self.clear), "the report is written on a cleared line: \(screen)")
        #expect(Self.drawsTheLine(screen[report.upperBound...]), "and the line drawn again after it")
        let result = try #require(screen.firstRange(of: "\(Self.token1) 200 "))
        #expect(screen[..<result.lowerBound].hasSuffix(Self.clear), "results are written on a cleared line")
        #expect(Self.drawsTheLine(screen[result.upperBound...]), "and the line drawn again after them")

        // The line goes for good before the summary: nothing is drawn or cleared after it.
        let lastClear = try #require(screen.ranges(of: Self.clear).last)
        let rest = screen[lastClear.upperBound...]
        #expect(rest.contains("sent (reached APNs)"), "the summary follows the last clear: \(rest)")
        #expect(!rest.contains("of 3 lines"))
    }

    @Test func withoutATerminalNothingIsDrawn() async {
        let process = FakeProcess(files: ["k.p8": Self.key, "r.ndjson": Self.file])
        _ = await process.run(["send"] + SendCommandTests.auth + ["--requests", "r.ndjson", "--concurrency", "1"])
        #expect(!process.stderr.contains("\u{1B}["))
    }

    @Test func theShareIsOfCountedLinesLessTheSkippedOnes() throws {
        let share = try #require(
            HeraldCLI.Progress.share(
                done: 25, of: HeraldCLI.Progress.Total(lines: 110, bytes: 11_000), skipped: 10,
                read: .init(lines: 60, bytes: 6000)))
        #expect(share.fraction == 0.25)
        #expect(share.label == "25% of 100 lines")
    }

    @Test func withoutACountTheLinesAreEstimatedFromTheBytesAndSaySo() throws {
        // 40 lines took 4,000 bytes: 10,000 bytes hold about 100 lines.
        let share = try #require(
            HeraldCLI.Progress.share(
                done: 30, of: HeraldCLI.Progress.Total(lines: nil, bytes: 10_000), skipped: 0,
                read: .init(lines: 40, bytes: 4000)))
        #expect(share.fraction == 0.3)
        #expect(share.label == "~30% of ~100 lines")
    }

    @Test func beforeAnyLineIsReadTheShareIsOfBytesLabelled() throws {
        let share = try #require(
            HeraldCLI.Progress.share(
                done: 0, of: HeraldCLI.Progress.Total(lines: nil, bytes: 10_000), skipped: 0,
                read: .init(lines: 0, bytes: 2500)))
        #expect(share.label == "25% of bytes read")
        #expect(
            HeraldCLI.Progress.share(
                done: 5, of: HeraldCLI.Progress.Total(lines: nil, bytes: nil), skipped: 0,
                read: .init(lines: 9, bytes: 900))?.label == nil, "a pipe: no share at all")
    }
}
