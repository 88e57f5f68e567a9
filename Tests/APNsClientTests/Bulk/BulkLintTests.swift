import APNs
import Testing

@testable import APNsClient

/// Bulk lines are linted like a single notification: an error refuses the line with its number
/// (unless lint errors only report), findings are reported once per payload and headers, and
/// every line with findings is counted.
@Suite(.timeLimit(.minutes(1)))
struct BulkLintTests {
    static let token = String(repeating: "ab", count: 32)

    static func line(_ payload: String, headers: String = "") -> String {
        #"{"token":"\#(token)","payload":\#(payload)\#(headers)}"#
    }

    /// The issue's examples: each of these went out unlinted.
    @Test(arguments: [
        (#"{"aps":{"alert":"hi","badge":"3"}}"#, ""),  // a string badge
        (#"{"aps":{"content-available":1}}"#, #","apns-priority":10"#),  // background at priority 10
        (
            #"{"aps":{"event":"update","content-state":{}}}"#,
            #","apns-push-type":"liveactivity","apns-topic":"com.example.app.push-type.liveactivity""#
        ),  // no timestamp
    ])
    func aLintErrorRefusesTheLine(payload: String, headers: String) throws {
        let decoder = NDJSONRequestDecoder(topic: "com.example.app")
        let error = #expect(throws: NDJSONRequestDecoder.LineError.self) {
            try decoder.decode(Array(Self.line(payload, headers: headers).utf8), number: 4)
        }
        #expect(error?.isLintError == true)
        #expect(error?.description.hasPrefix("line 4: refused by lint: ") == true, "\(String(describing: error))")

        let forced = NDJSONRequestDecoder(topic: "com.example.app", refuseLintErrors: false)
        let decoded = try forced.decode(Array(Self.line(payload, headers: headers).utf8), number: 4)
        #expect(decoded.lint.firstError != nil, "with --force the line is sent, its errors kept in the verdict")
    }

    @Test func aCleanLineHasNoFindings() throws {
        let decoder = NDJSONRequestDecoder(topic: "com.example.app")
        let decoded = try decoder.decode(Array(Self.line(#"{"aps":{"alert":"hi"}}"#).utf8), number: 1)
        #expect(decoded.lint.findings.isEmpty)
        #expect(decoded.lintIsNew)
    }

    /// Each (payload, headers) is linted once; the same payload with other headers is linted again.
    @Test func eachCombinationIsLintedOnce() throws {
        let decoder = NDJSONRequestDecoder(topic: "com.example.app")
        let payload = #"{"aps":{"alert":"hi"}}"#
        var fresh: [Bool] = []
        for headers in ["", "", #","apns-priority":5"#, #","apns-priority":5"#, ""] {
            fresh.append(try decoder.decode(Array(Self.line(payload, headers: headers).utf8), number: 1).lintIsNew)
        }
        #expect(fresh == [true, false, true, false, false])
        #expect(decoder.lintCache.state.withLock { $0.verdicts.count } == 2)
    }

    /// Through the stream: refused lines in order, findings reported once, lines with findings counted.
    @Test func theStreamReportsRefusalsAndCountsWarnings() throws {
        let warned = #"{"aps":{"alert":"hi","sound":"default","x-unknown":1}}"#  // an unknown aps key: a warning
        let lines = [
            Self.line(#"{"aps":{"alert":"hi"}}"#),
            Self.line(#"{"aps":{"alert":"hi","badge":"3"}}"#),
            Self.line(warned),
            Self.line(warned),
            Self.line(#"{"aps":{"alert":"hi","badge":"3"}}"#),
        ]
        let log = ReportLog()
        let requests = DecodedRequestStream(
            reader: MemoryLineReader(lines.joined(separator: "\n")),
            decoder: NDJSONRequestDecoder(topic: "com.example.app")
        ) { report in log.reports.withLock { $0.append(report) } }
        var sent = 0
        while requests.next() != nil { sent += 1 }
        requests.stop()
        #expect(sent == 3)
        #expect(log.refusals.map(\.line) == [2, 5])
        #expect(requests.refusedByLint == 2)
        let lintReports = log.reports.withLock { $0.filter { if case .lint = $0.kind { true } else { false } } }
        #expect(lintReports.map(\.line) == [3], "findings are reported once")
        #expect(requests.warned == 2, "both lines with the warning are counted")
    }
}
