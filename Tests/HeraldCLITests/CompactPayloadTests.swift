import APNs
import Testing

/// A pretty-printed payload file goes out compact, and its size is checked compact: APNs counts
/// whitespace against the limit.
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

    @Test func textThatIsNotJSONGoesAsItIsForLintToExplain() async {
        let process = FakeProcess(files: ["k.p8": SendCommandTests.key, "p.json": "{ \"aps\": "])
        #expect(await process.run(["send"] + SendCommandTests.auth + ["-t", SendCommandTests.token1, "p.json"]) == 1)
        #expect(process.transport.requests.isEmpty)
    }
}
