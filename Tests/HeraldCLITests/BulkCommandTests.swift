import APNs
import Foundation
import HeraldCLI
import Testing

/// The bulk parts of `herald send` and `herald lint` in memory: lint refusals with line numbers,
/// a truthful dry run, `lint --requests`, `--skip-lines`, and token files with CRLF.
@Suite(.timeLimit(.minutes(1)))
struct BulkCommandTests {
    static let token1 = SendCommandTests.token1
    static let token2 = SendCommandTests.token2
    static let auth = SendCommandTests.auth
    static let key = SendCommandTests.key

    static func line(_ token: String, _ payload: String, _ headers: String = "") -> String {
        #"{"token":"\#(token)","payload":\#(payload)\#(headers)}"#
    }

    /// Line 2 has a string badge, line 4 a background push at priority 10 (lint errors); line 3 is
    /// over 1 MiB; lines 5 and 6 carry an unknown aps key (a warning).
    static let lines = [
        line(token1, #"{"aps":{"alert":"one"}}"#),
        line(token2, #"{"aps":{"alert":"two","badge":"3"}}"#),
        line(token1, #"{"aps":{"alert":""# + String(repeating: "x", count: 1 << 20) + #""}}"#),
        line(token1, #"{"aps":{"content-available":1}}"#, #","apns-push-type":"background","apns-priority":10"#),
        line(token2, #"{"aps":{"alert":"five","x-unknown":1}}"#),
        line(token1, #"{"aps":{"alert":"five","x-unknown":1}}"#),
    ].joined(separator: "\n")

    @Test func lintErrorsRefuseTheirLinesAndTheRunGoesOn() async throws {
        let process = FakeProcess(files: ["k.p8": Self.key, "r.ndjson": Self.lines])
        #expect(await process.run(["send"] + Self.auth + ["--requests", "r.ndjson"]) == 1)
        #expect(process.transport.requests.count == 3, "lines 1, 5 and 6 are sent")
        #expect(process.stderr.contains("line 2: refused by lint: "), "\(process.stderr)")
        #expect(process.stderr.contains("line 3: longer than 1048576 bytes, skipped"))
        #expect(process.stderr.contains("line 4: refused by lint: APS-BG-PRIORITY"))
        #expect(process.stderr.contains("2 refused by lint") && process.stderr.contains("1 invalid request line"))
        #expect(process.stderr.contains("line 5: warning"), "the warning is reported at its first line")
        #expect(!process.stderr.contains("line 6: warning"), "and not again for the same payload and headers")
        #expect(process.stderr.contains("lint: 2 sent with findings"))
    }

    @Test func forceSendsLinesWithLintErrors() async throws {
        let process = FakeProcess(files: ["k.p8": Self.key, "r.ndjson": Self.lines])
        #expect(
            await process.run(["send"] + Self.auth + ["--requests", "r.ndjson", "--force"]) == 1, "line 3 still fails")
        #expect(process.transport.requests.count == 5)
        #expect(process.stderr.contains("line 2: error"), "the errors are still reported: \(process.stderr)")
        #expect(process.stderr.contains("lint: 4 sent with findings"))
    }

    @Test func aDryRunPrintsWhatWouldBeSentAndEachRefusal() async throws {
        let process = FakeProcess(files: ["k.p8": Self.key, "r.ndjson": Self.lines])
        #expect(await process.run(["send"] + Self.auth + ["--requests", "r.ndjson", "--dry-run"]) == 1)
        #expect(process.transport.requests.isEmpty)
        #expect(!process.stdout.contains(" 200 "), "no result is made up: \(process.stdout)")
        let printed = process.stdout.split(separator: "\n")
        #expect(printed.count == 3)
        #expect(printed.first?.hasPrefix("line 1: POST /3/device/\(Self.token1) ") == true)
        #expect(printed.first?.contains("apns-topic: com.example.app") == true)
        #expect(printed.first?.hasSuffix(#"{"aps":{"alert":"one"}}"#) == true)
        #expect(printed.last?.hasPrefix("line 6: ") == true)
        #expect(process.stderr.contains("line 3: longer than"))
        #expect(process.stderr.contains("dry run: 3 would be sent, 3 refused, none sent"), "\(process.stderr)")
        #expect(!process.stderr.contains("sent: "), "no send summary")
    }

    @Test func aCleanDryRunSucceeds() async throws {
        let file = Self.line(Self.token1, #"{"aps":{"alert":"one"}}"#) + "\n"
        let process = FakeProcess(files: ["k.p8": Self.key, "r.ndjson": file])
        #expect(await process.run(["send"] + Self.auth + ["--requests", "r.ndjson", "--dry-run", "--json"]) == 0)
        let first = try #require(process.stdout.split(separator: "\n").first)
        let object = try #require(try JSONValue(parsing: Array(first.utf8)).objectValue)
        #expect(object["line"]?.numberValue?.text == "1")
        #expect(object["headers"]?.objectValue?["apns-push-type"]?.stringValue == "alert")
        #expect(process.stderr.contains("dry run: 1 would be sent, 0 refused"))
    }

    @Test func skipLinesSkipsExactlyThoseLines() async throws {
        let file = (1...5).map { Self.line(Self.token1, #"{"aps":{"alert":"n\#($0)"}}"#) }.joined(separator: "\n")
        let process = FakeProcess(files: ["k.p8": Self.key, "r.ndjson": file])
        #expect(await process.run(["send"] + Self.auth + ["--requests", "r.ndjson", "--skip-lines", "3"]) == 0)
        let alerts = process.transport.requests.compactMap { request in
            (try? JSONValue(parsing: request.body))?.objectValue?["aps"]?.objectValue?["alert"]?.stringValue
        }
        #expect(alerts.sorted() == ["n4", "n5"])
        #expect(process.stderr.contains("2 sent (reached APNs): 2 accepted"), "\(process.stderr)")
    }

    @Test func skipLinesNeedsRequests() async {
        let process = FakeProcess(files: ["k.p8": Self.key])
        #expect(
            await process.run(["send"] + Self.auth + ["-t", Self.token1, "--alert", "x", "--skip-lines", "3"]) == 2)
    }

    @Test func lintChecksARequestsFileLineByLine() async throws {
        let process = FakeProcess(files: ["r.ndjson": Self.lines + "\nnot json\n\n"])
        #expect(await process.run(["lint", "--topic", "com.example.app", "--requests", "r.ndjson"]) == 1)
        let out = process.stdout
        #expect(out.contains("line 2: error"), "\(out)")
        #expect(out.contains("line 3: error  longer than"))
        #expect(out.contains("line 4: error   APS-BG-PRIORITY") || out.contains("line 4: error  APS-BG-PRIORITY"))
        #expect(out.contains("line 5: warning") && out.contains("line 6: warning"), "every line's findings")
        #expect(out.contains("line 7: error  invalid JSON"))
        #expect(!out.contains("line 1:") && !out.contains("line 8:"))
        #expect(out.contains("7 request(s): 1 clean, 2 with warnings only, 4 with errors"))
        #expect(process.transport.requests.isEmpty)
    }

    @Test func lintPassesACleanRequestsFile() async {
        let file = Self.line(Self.token1, #"{"aps":{"alert":"one"}}"#) + "\n"
        let process = FakeProcess(files: ["r.ndjson": file])
        #expect(await process.run(["lint", "--topic", "com.example.app", "--requests", "r.ndjson"]) == 0)
        #expect(process.stdout.contains("1 request(s): 1 clean"))
    }

    /// A tokens file with CRLF line ends is read as one token a line (it used to fail on an
    /// invisible "\r\n").
    @Test func aTokensFileWithCRLFIsRead() async {
        let process = FakeProcess(files: ["k.p8": Self.key, "tokens.txt": "\(Self.token1)\r\n\(Self.token2)\r\n"])
        #expect(
            await process.run(["send"] + Self.auth + ["--tokens-file", "tokens.txt", "--alert", "Hi"]) == 0,
            "\(process.stderr)")
        #expect(process.transport.requests.count == 2)
    }

    /// A message quoting outside input shows its invisible characters.
    @Test func invisibleCharactersInATokenAreShown() async {
        let process = FakeProcess(files: ["k.p8": Self.key, "tokens.txt": "\(Self.token1)\u{200B}\n"])
        #expect(await process.run(["send"] + Self.auth + ["--tokens-file", "tokens.txt", "--alert", "Hi"]) == 1)
        #expect(process.stderr.contains("\\u{200B}"), "\(process.stderr)")
        #expect(!process.stderr.contains("\u{200B}"))
    }
}
