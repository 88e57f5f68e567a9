import APNs
import Testing

/// A pretty-printed payload file goes out compact, and its size is checked compact (by send and by
/// lint alike): APNs counts whitespace against the limit.
@Suite(.timeLimit(.minutes(1)))
struct CompactPayloadTests {
    @Test func aPrettyPrintedFileIsSentCompactAndFitsWhenItsCompactFormDoes() async throws {
        let body = String(repeating: "x", count: 3900)
        let indent = String(repeating: " ", count: 600)
        let pretty =
            "{\n\(indent)\"aps\": {\n\(indent)\"alert\": \"\(body)\",\n\(indent)\"badge\": 1\n\(indent)},\n"
            + "\(indent)\"z\": [ 1.50e1 , -0 ],\n\(indent)\"a\": \"\\u00e9 \"\n}\n"
        #expect(pretty.utf8.count > 4096, "the file itself is over the limit")
        let process = FakeProcess(files: ["k.p8": SendCommandTests.key, "p.json": pretty])
        let status = await process.run(["send"] + SendCommandTests.auth + ["-t", SendCommandTests.token1, "p.json"])
        #expect(status == 0, "\(process.stderr)")
        let sent = try #require(process.transport.requests.first).body
        let expected = #"{"aps":{"alert":"\#(body)","badge":1},"z":[1.50e1,-0],"a":"é "}"#
        #expect(String(decoding: sent, as: UTF8.self) == expected, "members in order, the number as written")
    }

    /// A file over the limit whose compact form fits (the same shape as the send test's).
    static func prettyPayload() -> (file: String, compactSize: Int) {
        let indent = String(repeating: " ", count: 600)
        let alert = String(repeating: "x", count: 3900)
        let file = "{\n\(indent)\"aps\": {\n\(indent)\"alert\": \"\(alert)\",\n\(indent)\"badge\": 1\n\(indent)}\n}\n"
        return (file, #"{"aps":{"alert":"\#(alert)","badge":1}}"#.utf8.count)
    }

    @Test func lintChecksAndReportsTheSizeOfTheCompactFormThatSendSends() async {
        let (file, compactSize) = Self.prettyPayload()
        #expect(file.utf8.count > 4096 && compactSize <= 4096)
        let process = FakeProcess(files: ["p.json": file])
        #expect(await process.run(["lint", "p.json"]) == 0, "\(process.stdout)")
        #expect(!process.stdout.contains("PAYLOAD-TOO-LARGE"))
        #expect(
            process.stdout.contains(
                "ok: no findings (payload \(compactSize) of 4096 bytes (compact; the file has \(file.utf8.count)))"))
    }

    @Test func lintJSONGivesTheCompactSizeAndTheFileSize() async throws {
        let (file, compactSize) = Self.prettyPayload()
        let process = FakeProcess(stdin: file)
        #expect(await process.run(["lint", "--json", "-"]) == 0)
        let output = try JSONValue(parsing: process.stdout)
        #expect(output["payload-size"]?.intValue == compactSize)
        #expect(output["file-size"]?.intValue == file.utf8.count)
    }

    @Test func lintOfACompactFileSaysNothingOfTheFile() async {
        let process = FakeProcess(files: ["p.json": #"{"aps":{"alert":"Hello"}}"#])
        #expect(await process.run(["lint", "p.json"]) == 0)
        #expect(process.stdout.contains("ok: no findings (payload 25 of 4096 bytes)\n"))
    }

    @Test func textThatIsNotJSONGoesAsItIsForLintToExplain() async {
        let process = FakeProcess(files: ["k.p8": SendCommandTests.key, "p.json": "{ \"aps\": "])
        #expect(await process.run(["send"] + SendCommandTests.auth + ["-t", SendCommandTests.token1, "p.json"]) == 1)
        #expect(process.transport.requests.isEmpty)
    }
}
