import HTTP2
import Testing

@Suite("HTTP/2 session: limits on what the peer sends", .timeLimit(.minutes(1)))
struct SessionLimitsTests {
    static func bulkyHeaders(_ count: Int) -> [HTTP2Header] {
        (0..<count).map { HTTP2Header("x-bulk-\($0)", String(repeating: "v", count: 1000)) }
    }

    @Test("a request header list over the server's limit is reset; the connection carries on")
    func hugeRequestHeaders() throws {
        let pair = try SessionPair(server: HTTP2SessionConfiguration(maxHeaderListSize: 16_384))
        pair.serverEvents.respond = ServerRecorder.echo
        try pair.pump()
        #expect(pair.client.remoteSettings?.maxHeaderListSize == 16_384)
        try pair.client.submitRequest(
            headers: requestHeaders(path: "/big", extra: Self.bulkyHeaders(40)), body: [1], token: 1)
        try pair.pump()
        let failure = try #require(pair.clientEvents.failures[1])
        #expect(failure.kind == .reset(.enhanceYourCalm))
        #expect(pair.serverEvents.requests.isEmpty)
        #expect(pair.server.openStreamCount == 0)

        try pair.client.submitRequest(headers: requestHeaders(path: "/small"), body: [2], token: 2)
        try pair.pump()
        #expect(pair.clientEvents.responses[2]?.body == [2])
    }

    @Test("a response header list over the client's limit fails the request, not the connection")
    func hugeResponseHeaders() throws {
        let pair = try SessionPair(client: HTTP2SessionConfiguration(maxHeaderListSize: 8_192))
        pair.serverEvents.respond = { session, request in
            try session.submitResponse(streamID: request.streamID, status: 200, headers: Self.bulkyHeaders(20))
        }
        let streamID = try pair.client.submitRequest(headers: requestHeaders(path: "/1"), body: nil, token: 1)
        try pair.pump()
        #expect(pair.clientEvents.failures[1]?.kind == .headerListTooLarge(limit: 8_192))
        #expect(pair.clientFrames.resets.map(\.code) == [HTTP2ErrorCode.enhanceYourCalm.rawValue])
        #expect(pair.serverEvents.closed[streamID] != nil)  // NO_ERROR: the response had all gone out
        #expect(pair.client.isAlive)
    }

    @Test("a request body over the server's limit is delivered early, flagged, and can be answered 413")
    func requestBodyTooLarge() throws {
        let pair = try SessionPair(server: HTTP2SessionConfiguration(maxBodySize: 4096))
        pair.serverEvents.respond = { session, request in
            if request.exceededBodyLimit {
                try session.submitResponse(
                    streamID: request.streamID, status: 413, body: Array(#"{"reason":"PayloadTooLarge"}"#.utf8))
            } else {
                try ServerRecorder.echo(session, request)
            }
        }
        try pair.client.submitRequest(
            headers: requestHeaders(path: "/big"), body: patternBody(count: 200_000, seed: 1), token: 1)
        try pair.client.submitRequest(
            headers: requestHeaders(path: "/fits"), body: patternBody(count: 4096, seed: 2), token: 2)
        try pair.pump()

        let rejected = try #require(pair.serverEvents.requests.first { $0.path == "/big" })
        #expect(rejected.exceededBodyLimit)
        #expect(rejected.body.isEmpty)
        #expect(pair.clientEvents.responses[1]?.status == 413)
        #expect(pair.clientEvents.responses[1]?.body == Array(#"{"reason":"PayloadTooLarge"}"#.utf8))
        #expect(pair.clientEvents.responses[2]?.body == patternBody(count: 4096, seed: 2))
        #expect(pair.serverFrames.resets.map(\.code) == [HTTP2ErrorCode.noError.rawValue])  // "stop sending"
        #expect(pair.clientEvents.reportedTwice.isEmpty)
    }

    @Test("a response body over the client's limit is cancelled")
    func responseBodyTooLarge() throws {
        let pair = try SessionPair(client: HTTP2SessionConfiguration(maxBodySize: 1000))
        pair.serverEvents.respond = { session, request in
            try session.submitResponse(
                streamID: request.streamID, status: 200, body: patternBody(count: 50_000, seed: 1))
        }
        let streamID = try pair.client.submitRequest(headers: requestHeaders(path: "/1"), body: nil, token: 1)
        try pair.pump()
        #expect(pair.clientEvents.failures[1]?.kind == .bodyTooLarge(limit: 1000))
        #expect(pair.clientFrames.resets.map(\.code) == [HTTP2ErrorCode.cancel.rawValue])
        #expect(pair.serverEvents.closed[streamID] != nil)
    }

    @Test("invalid headers are refused before anything is sent")
    func invalidHeaders() throws {
        #expect(throws: HTTP2Error.self) { try HTTP2HeaderBlock([HTTP2Header("Apns-Topic", "x")]) }
        #expect(throws: HTTP2Error.self) { try HTTP2HeaderBlock([HTTP2Header("x-ok", "a\r\nb")]) }
        #expect(throws: HTTP2Error.self) { try HTTP2HeaderBlock([HTTP2Header("", "x")]) }
        #expect(throws: HTTP2Error.self) { try HTTP2HeaderBlock([HTTP2Header(":", "x")]) }
        let client = try HTTP2ClientSession()
        #expect(throws: HTTP2Error.self) {
            try client.submitRequest(headers: [HTTP2Header("bad name", "x")], body: nil, token: 1)
        }
        #expect(client.openStreamCount == 0)
        let server = try HTTP2ServerSession()
        #expect(throws: HTTP2Error(.streamClosed(streamID: 1))) { try server.submitResponse(streamID: 1, status: 200) }
    }
}
