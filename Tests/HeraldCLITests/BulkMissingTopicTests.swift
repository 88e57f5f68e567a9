import APNs
import HeraldCLI
import Testing

/// `herald send --requests` with token authentication refuses, line by line and before sending,
/// the lines that have no topic (APNs would answer each 400 MissingTopic); with a certificate,
/// whose topic APNs may take from the certificate, the same lines are sent.
@Suite(.timeLimit(.minutes(1)))
struct BulkMissingTopicTests {
    static let token1 = SendCommandTests.token1
    static let key = SendCommandTests.key
    /// Token authentication without `--topic`.
    static let tokenAuth = ["--auth-key", "k.p8", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"]
    static let missing = "apns-topic: missing; token authentication needs the topic (the app's bundle id)"

    /// Line 2 names its topic; lines 1 and 3 do not.
    static let lines =
        [
            #"{"token":"\#(token1)","payload":{"aps":{"alert":"one"}}}"#,
            #"{"token":"\#(token1)","payload":{"aps":{"alert":"two"}},"apns-topic":"com.example.app"}"#,
            #"{"token":"\#(token1)","payload":{"aps":{"alert":"three"}},"apns-priority":"5"}"#,
        ].joined(separator: "\n") + "\n"

    @Test func tokenAuthRefusesEachLineWithoutATopic() async {
        let process = FakeProcess(files: ["k.p8": Self.key, "r.ndjson": Self.lines])
        #expect(await process.run(["send"] + Self.tokenAuth + ["--requests", "r.ndjson"]) == 1)
        #expect(process.transport.requests.count == 1, "only line 2 is sent")
        #expect(process.transport.requests.first?.header("apns-topic") == "com.example.app")
        #expect(process.stderr.contains("--requests r.ndjson, line 1: \(Self.missing)\n"), "\(process.stderr)")
        #expect(process.stderr.contains("--requests r.ndjson, line 3: \(Self.missing)\n"))
        #expect(!process.stderr.contains("line 2:"))
    }

    @Test func aDryRunRefusesThemToo() async {
        let process = FakeProcess(files: ["k.p8": Self.key, "r.ndjson": Self.lines])
        #expect(await process.run(["send"] + Self.tokenAuth + ["--requests", "r.ndjson", "--dry-run"]) == 1)
        #expect(process.stderr.contains("line 1: \(Self.missing)"), "\(process.stderr)")
        #expect(process.stderr.contains("dry run: 1 would be sent, 2 refused"))
    }

    @Test func aTopicDefaultCoversEveryLine() async {
        let process = FakeProcess(files: ["k.p8": Self.key, "r.ndjson": Self.lines])
        let status = await process.run(
            ["send"] + Self.tokenAuth + ["--topic", "com.example.app", "--requests", "r.ndjson"])
        #expect(status == 0, "\(process.stderr)")
        #expect(process.transport.requests.count == 3)
    }

    @Test func certificateAuthSendsLinesWithoutATopic() async {
        let process = FakeProcess(files: ["r.ndjson": Self.lines])
        let status = await process.run(["send", "--cert", "c.p12", "--requests", "r.ndjson"])
        #expect(status == 0, "\(process.stderr)")
        #expect(process.transport.requests.count == 3)
        #expect(!process.stderr.contains("apns-topic: missing"))
    }
}
