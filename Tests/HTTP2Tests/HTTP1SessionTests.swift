// HTTP1ServerSession without sockets: request bytes in, the requests the delegate sees and the
// response bytes out.
import Foundation
import Testing

@testable import HTTP2

/// Records what a session delivers; answers at once with `answer` when it is set.
final class HTTP1Recorder: HTTP1ServerSessionDelegate {
    var requests: [HTTP2Request] = []
    var closed: [(Int32, HTTP2ErrorCode)] = []
    var answer: ((HTTP1ServerSession, HTTP2Request) -> Void)?

    func session(_ session: HTTP1ServerSession, didReceive request: HTTP2Request) {
        requests.append(request)
        answer?(session, request)
    }

    func session(_ session: HTTP1ServerSession, didCloseStream streamID: Int32, errorCode: HTTP2ErrorCode) {
        closed.append((streamID, errorCode))
    }
}

/// A session, its recorder, and text in and out.
struct HTTP1Harness {
    let session: HTTP1ServerSession
    let recorder = HTTP1Recorder()

    init(_ configuration: HTTP1SessionConfiguration = HTTP1SessionConfiguration(), echo: Bool = true) {
        session = HTTP1ServerSession(configuration: configuration)
        session.delegate = recorder
        if echo {
            recorder.answer = { session, request in
                try? session.submitResponse(
                    streamID: request.streamID, status: 200, body: Array((request.path ?? "").utf8))
            }
        }
    }

    func send(_ text: String) {
        send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { session.receive($0) }
    }

    func output() -> String {
        var buffer: [UInt8] = []
        session.produceOutput(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}

@Suite(.timeLimit(.minutes(1)))
struct HTTP1SessionTests {
    @Test func aRequestArrivesWithHTTP2sFieldsAndIsAnsweredWithContentLength() throws {
        let harness = HTTP1Harness()
        harness.send("GET /v1/apps/x?y=1 HTTP/1.1\r\nHost: example.com:8080\r\nX-Trace:  abc \r\nAccept: */*\r\n\r\n")
        let request = try #require(harness.recorder.requests.first)
        #expect(request.streamID == 1)
        #expect(request.method == "GET")
        #expect(request.path == "/v1/apps/x?y=1")
        #expect(request.authority == "example.com:8080")
        #expect(request.scheme == "http")
        #expect(request.headers.value(for: "x-trace") == "abc")
        #expect(request.headers.value(for: "host") == nil)
        #expect(request.headers.pseudoHeaderCount == 4)
        #expect(harness.output() == "HTTP/1.1 200 OK\r\ncontent-length: 14\r\n\r\n/v1/apps/x?y=1")
        #expect(harness.session.isAlive)
        #expect(harness.recorder.closed.map(\.0) == [1])
    }

    @Test func keepAliveServesRequestsOneAfterAnother() {
        let harness = HTTP1Harness()
        for path in ["/a", "/b", "/c"] {
            harness.send("GET \(path) HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(harness.output().hasSuffix("\r\n\r\n\(path)"))
        }
        #expect(harness.recorder.requests.map(\.streamID) == [1, 3, 5])
        #expect(harness.session.isAlive)
    }

    @Test func pipelinedRequestsAreAnsweredInRequestOrder() throws {
        let harness = HTTP1Harness(echo: false)
        harness.send(
            "GET /1 HTTP/1.1\r\nHost: h\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\n\r\nGET /3 HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(harness.recorder.requests.map(\.path) == ["/1", "/2", "/3"])
        try harness.session.submitResponse(streamID: 5, status: 200, body: Array("three".utf8))
        try harness.session.submitResponse(streamID: 3, status: 200, body: Array("two".utf8))
        #expect(harness.output() == "")  // the first is not answered yet
        try harness.session.submitResponse(streamID: 1, status: 200, body: Array("one".utf8))
        let output = harness.output()
        let one = try #require(output.firstRange(of: "one"))
        let two = try #require(output.firstRange(of: "two"))
        let three = try #require(output.firstRange(of: "three"))
        #expect(one.lowerBound < two.lowerBound && two.lowerBound < three.lowerBound)
    }

    @Test func pipeliningIsBoundedAndResumesOnceAnswersLeave() throws {
        var configuration = HTTP1SessionConfiguration()
        configuration.maxPipelinedRequests = 2
        let harness = HTTP1Harness(configuration, echo: false)
        harness.send(String(repeating: "GET /p HTTP/1.1\r\nHost: h\r\n\r\n", count: 5))
        #expect(harness.recorder.requests.count == 2)
        #expect(harness.session.isReadingPaused)
        #expect(!harness.session.resumeReading())  // no room yet
        try harness.session.submitResponse(streamID: 1, status: 204)
        try harness.session.submitResponse(streamID: 3, status: 204)
        _ = harness.output()
        #expect(harness.session.resumeReading())
        #expect(harness.recorder.requests.map(\.streamID) == [1, 3, 5, 7])
    }

    @Test func aRequestSplitIntoSingleBytesArrivesWhole() throws {
        let harness = HTTP1Harness(echo: false)
        for byte in Array("POST /b HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello".utf8) {
            harness.send([byte])
        }
        let request = try #require(harness.recorder.requests.first)
        #expect(request.body == Array("hello".utf8))
        #expect(request.headers.value(for: "content-length") == "5")
    }

    @Test func chunkedBodiesAreDecoded() throws {
        let harness = HTTP1Harness(echo: false)
        harness.send(
            "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n")
        let request = try #require(harness.recorder.requests.first)
        #expect(request.body == Array("hello world".utf8))
        #expect(request.headers.value(for: "transfer-encoding") == nil)
    }

    @Test func aDeclaredBodyOverTheLimitIsDeliveredAtOnceFlaggedAndTheConnectionEnds() throws {
        var configuration = HTTP1SessionConfiguration()
        configuration.maxBodySize = 10
        let harness = HTTP1Harness(configuration, echo: false)
        harness.send("PUT /big HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\nExpect: 100-continue\r\n\r\n")
        let request = try #require(harness.recorder.requests.first)
        #expect(request.exceededBodyLimit)
        #expect(request.body.isEmpty)
        try harness.session.submitResponse(streamID: 1, status: 413)
        let output = harness.output()
        #expect(output.hasPrefix("HTTP/1.1 413 Payload Too Large\r\n"), "\(output)")
        #expect(output.contains("connection: close\r\n"))
        #expect(!output.contains("100 Continue"))  // the client should not send the body
        #expect(!harness.session.isAlive)
    }

    @Test func aChunkedBodyGrowingPastTheLimitIsDeliveredFlagged() throws {
        var configuration = HTTP1SessionConfiguration()
        configuration.maxBodySize = 8
        let harness = HTTP1Harness(configuration, echo: false)
        harness.send("POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
        #expect(harness.recorder.requests.isEmpty)
        harness.send("5\r\nworld\r\n0\r\n\r\nGET /next HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(harness.recorder.requests.count == 1)  // the request after it is not read
        #expect(harness.recorder.requests.first?.exceededBodyLimit == true)
    }

    @Test func expectContinueIsAnsweredBeforeTheBody() throws {
        let harness = HTTP1Harness()
        harness.send("POST /e HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n")
        #expect(harness.output() == "HTTP/1.1 100 Continue\r\n\r\n")
        harness.send("ok")
        #expect(harness.output().hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(harness.recorder.requests.first?.headers.value(for: "expect") == nil)
    }

    @Test func headIsAnsweredWithTheLengthAndWithoutTheBody() {
        let harness = HTTP1Harness()
        harness.send("HEAD /four HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(harness.output() == "HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\n")
    }

    @Test(arguments: [
        "GET /x HTTP/1.0\r\n\r\n",
        "GET /x HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n",
    ])
    func theConnectionEndsAfterTheAnswerWithoutKeepAlive(_ request: String) {
        let harness = HTTP1Harness()
        harness.send(request + "GET /ignored HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(harness.recorder.requests.count == 1)
        let output = harness.output()
        #expect(output.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(output.contains("connection: close\r\n"))
        #expect(!harness.session.isAlive)
    }

    @Test(arguments: [
        ("GARBAGE\r\n\r\n", 400),
        ("GET /x HTTP/1.1\r\n\r\n", 400),  // no Host
        ("GET /x HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        ("GET x HTTP/1.1\r\nHost: h\r\n\r\n", 400),
        ("CONNECT h:443 HTTP/1.1\r\nHost: h:443\r\n\r\n", 400),
        ("POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n", 400),
        ("GET /x HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "v", count: 20_000) + "\r\n\r\n", 431),
    ])
    func badRequestsAreAnsweredByTheSessionWhichThenEnds(_ request: String, _ status: Int) {
        let harness = HTTP1Harness()
        harness.send("GET /first HTTP/1.1\r\nHost: h\r\n\r\n" + request)
        #expect(harness.recorder.requests.map(\.path) == ["/first"])
        let output = harness.output()
        #expect(output.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(output)")
        #expect(output.contains("\r\n\r\n/firstHTTP/1.1 \(status) "), "\(output)")
        #expect(output.hasSuffix("\n") && output.contains("connection: close\r\n"))
        #expect(!harness.session.isAlive)
    }

    @Test func anUpgradeIsNotTakenAndReadingGoesOn() {
        let harness = HTTP1Harness()
        harness.send(
            "GET /u HTTP/1.1\r\nHost: h\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
                + "HTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA\r\n\r\nGET /next HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(harness.recorder.requests.map(\.path) == ["/u", "/next"])
        #expect(harness.recorder.requests.first?.headers.value(for: "upgrade") == nil)
        let output = harness.output()
        #expect(output.hasPrefix("HTTP/1.1 200 OK\r\n") && output.hasSuffix("/next"), "\(output)")
        #expect(harness.session.isAlive)
    }

    @Test func streamingResponsesAreChunked() throws {
        let harness = HTTP1Harness(echo: false)
        harness.send("GET /s HTTP/1.1\r\nHost: h\r\n\r\n")
        try harness.session.submitStreamingResponse(
            streamID: 1, status: 200, headers: [HTTP2Header("content-type", "text/event-stream")])
        try harness.session.writeStream(streamID: 1, Array("data: 1\n\n".utf8))
        #expect(harness.session.bufferedStreamBytes(streamID: 1) > 0)
        #expect(
            harness.output()
                == "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n9\r\ndata: 1\n\n\r\n"
        )
        try harness.session.finishStream(streamID: 1)
        #expect(harness.output() == "0\r\n\r\n")
        #expect(harness.recorder.closed.map(\.1) == [.noError])
        #expect(harness.session.isAlive)
    }

    @Test func anAbandonedRequestEndsTheConnectionAfterTheAnswersBeforeIt() throws {
        let harness = HTTP1Harness(echo: false)
        harness.send("GET /1 HTTP/1.1\r\nHost: h\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\n\r\n")
        try harness.session.abandon(streamID: 3, errorCode: .refusedStream)
        try harness.session.submitResponse(streamID: 1, status: 200)
        let output = harness.output()
        #expect(output.components(separatedBy: "HTTP/1.1").count == 2, "\(output)")
        #expect(harness.recorder.closed.map(\.1) == [.noError, .refusedStream])
        #expect(!harness.session.isAlive)
    }

    @Test func anAbandonedStreamingResponseDropsWhatItHasNotSent() throws {
        let harness = HTTP1Harness(echo: false)
        harness.send("GET /s HTTP/1.1\r\nHost: h\r\n\r\n")
        try harness.session.submitStreamingResponse(streamID: 1, status: 200)
        try harness.session.writeStream(streamID: 1, Array("sent".utf8))
        #expect(harness.output().hasSuffix("4\r\nsent\r\n"))
        try harness.session.writeStream(streamID: 1, Array(repeating: 0x61, count: 1000))
        try harness.session.abandon(streamID: 1, errorCode: .enhanceYourCalm)
        #expect(harness.session.bufferedStreamBytes(streamID: 1) == 0)
        #expect(harness.output() == "")
        #expect(harness.recorder.closed.map(\.1) == [.enhanceYourCalm])
        #expect(!harness.session.isAlive)
    }

    @Test func closingReportsOpenRequestsCancelled() {
        let harness = HTTP1Harness(echo: false)
        harness.send("GET /1 HTTP/1.1\r\nHost: h\r\n\r\n")
        harness.session.close()
        #expect(harness.recorder.closed.map(\.1) == [.cancel])
        #expect(throws: HTTP2Error.self) { try harness.session.submitResponse(streamID: 1, status: 200) }
    }
}
