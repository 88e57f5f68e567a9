import HTTP2
import Testing

@Suite("HTTP/2 session: streaming responses", .timeLimit(.minutes(1)))
struct SessionStreamingTests {
    /// A pair whose server starts a streaming response to every request and keeps the stream ids.
    func streamingPair(
        client: HTTP2SessionConfiguration = HTTP2SessionConfiguration()
    ) throws -> (SessionPair, () -> Int32?) {
        let pair = try SessionPair(client: client)
        pair.serverEvents.respond = { session, request in
            try session.submitStreamingResponse(
                streamID: request.streamID, status: 200, headers: [HTTP2Header("content-type", "application/x-ndjson")])
        }
        return (pair, { pair.serverEvents.requests.last?.streamID })
    }

    @Test("the head arrives first, each write arrives as written, finish ends the stream")
    func headChunksThenEnd() throws {
        let (pair, stream) = try streamingPair()
        let token = try pair.client.submitStreamingRequest(
            headers: nil, extraHeaders: HTTP2HeaderBuffer(requestHeaders(path: "/listen")), body: nil, token: 1)
        try pair.pump()
        let streamID = try #require(stream())
        #expect(streamID == token)
        #expect(pair.clientEvents.heads[1]?.status == 200)
        #expect(pair.clientEvents.heads[1]?.headers.value(for: "content-type") == "application/x-ndjson")
        #expect(pair.clientEvents.chunks[1] == nil, "nothing written yet: the provider defers")
        #expect(pair.clientEvents.reports[1] == nil, "the stream stays open while deferred")

        for line in ["one\n", "two\n", "three\n"] {
            try pair.server.writeStream(streamID: streamID, Array(line.utf8))
            try pair.pump()
        }
        #expect(pair.clientEvents.chunks[1] == ["one\n", "two\n", "three\n"].map { Array($0.utf8) })
        #expect(pair.clientEvents.reports[1] == nil)

        try pair.server.finishStream(streamID: streamID)
        try pair.pump()
        #expect(pair.clientEvents.responses[1]?.status == 200)
        #expect(pair.clientEvents.responses[1]?.body == [], "the body went out as chunks")
        #expect(pair.serverEvents.closed[streamID] == .noError)
        #expect(pair.clientEvents.reportedTwice.isEmpty)
    }

    @Test("a write and a finish in one turn still end with the written bytes")
    func writeThenFinishTogether() throws {
        let (pair, stream) = try streamingPair()
        try pair.client.submitStreamingRequest(
            headers: nil, extraHeaders: HTTP2HeaderBuffer(requestHeaders(path: "/x")), body: nil, token: 1)
        try pair.pump()
        let streamID = try #require(stream())
        try pair.server.writeStream(streamID: streamID, Array("last".utf8))
        try pair.server.finishStream(streamID: streamID)
        try pair.pump()
        #expect(pair.clientEvents.chunks[1]?.flatMap { $0 } == Array("last".utf8))
        #expect(pair.clientEvents.responses[1] != nil)
        #expect(throws: HTTP2Error.self) { try pair.server.writeStream(streamID: streamID, [1]) }
    }

    @Test("1 MB through a 64 KB window: unsent bytes wait on the server until the client reads")
    func flowControlHoldsBytesOnTheServer() throws {
        let (pair, stream) = try streamingPair()
        try pair.client.submitStreamingRequest(
            headers: nil, extraHeaders: HTTP2HeaderBuffer(requestHeaders(path: "/big")), body: nil, token: 1)
        try pair.pump()
        let streamID = try #require(stream())
        let body = patternBody(count: 1 << 20, seed: 7)
        for start in stride(from: 0, to: body.count, by: 4096) {
            try pair.server.writeStream(streamID: streamID, Array(body[start..<min(start + 4096, body.count)]))
        }
        // The server produces output the client never reads: only the window's worth leaves.
        var unread: [UInt8] = []
        pair.server.produceOutput(into: &unread)
        #expect(pair.server.bufferedStreamBytes(streamID: streamID) == body.count - 65_535)

        // Now the client reads them, and the rest follows window by window.
        try unread.withUnsafeBytes { bytes in try pair.client.receive(bytes) }
        try pair.server.finishStream(streamID: streamID)
        let rounds = try pair.pump()
        #expect(rounds >= 15)
        #expect(pair.server.bufferedStreamBytes(streamID: streamID) == 0)
        let received = pair.clientEvents.chunks[1]?.flatMap { $0 } ?? []
        let intact = received == body  // not inside #expect: a failure would print a megabyte
        #expect(received.count == body.count)
        #expect(intact)
        #expect(pair.clientEvents.responses[1] != nil)
    }

    @Test("a client reset reaches the server as CANCEL; later writes throw streamClosed")
    func clientCancels() throws {
        let (pair, stream) = try streamingPair()
        let streamID = try pair.client.submitStreamingRequest(
            headers: nil, extraHeaders: HTTP2HeaderBuffer(requestHeaders(path: "/x")), body: nil, token: 1)
        try pair.pump()
        try pair.server.writeStream(streamID: try #require(stream()), [1, 2, 3])
        try pair.pump()
        try pair.client.resetStream(streamID)
        try pair.pump()
        #expect(pair.serverEvents.closed[streamID] == .cancel)
        #expect(pair.clientEvents.failures[1]?.kind == .cancelled)
        #expect(throws: HTTP2Error.self) { try pair.server.writeStream(streamID: streamID, [4]) }
    }

    @Test("plain requests on the same connection are unaffected by an open stream")
    func plainRequestsAlongside() throws {
        let pair = try SessionPair()
        pair.serverEvents.respond = { session, request in
            if request.path == "/listen" {
                try session.submitStreamingResponse(streamID: request.streamID, status: 200)
            } else {
                try ServerRecorder.echo(session, request)
            }
        }
        try pair.client.submitStreamingRequest(
            headers: nil, extraHeaders: HTTP2HeaderBuffer(requestHeaders(path: "/listen")), body: nil, token: 1)
        try pair.client.submitRequest(headers: requestHeaders(path: "/echo"), body: [9, 9], token: 2)
        try pair.pump()
        #expect(pair.clientEvents.responses[2]?.body == [9, 9])
        #expect(pair.clientEvents.heads[1] != nil && pair.clientEvents.reports[1] == nil)
        #expect(pair.clientEvents.heads[2] == nil, "only streaming requests report a head")
    }
}
