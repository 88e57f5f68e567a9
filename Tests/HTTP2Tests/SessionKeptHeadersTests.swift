import HTTP2
import Testing

@Suite("HTTP/2 session: keeping only named response headers", .timeLimit(.minutes(1)))
struct SessionKeptHeadersTests {
    static let kept = HTTP2HeaderNameSet(["apns-id", "apns-unique-id", "apns-request-id", "apns-channel-id"])

    @Test(
        "a name is in the set only when every byte matches",
        arguments: [
            ("apns-id", true), ("apns-unique-id", true), ("apns-request-id", true), ("apns-channel-id", true),
            ("content-length", false),  // as long as apns-unique-id
            ("apns-ie", false), ("bpns-id", false), ("apns-i", false), ("apns-idx", false), ("date", false),
            ("", false), (String(repeating: "a", count: 70), false),
        ])
    func membership(name: String, expected: Bool) {
        let bytes = Array(name.utf8)
        #expect(bytes.withUnsafeBufferPointer { Self.kept.contains($0) } == expected)
    }

    @Test("names of 63 bytes and more share a length bit but are still compared")
    func longNames() {
        let long = String(repeating: "x", count: 80)
        let set = HTTP2HeaderNameSet([long])
        #expect(Array(long.utf8).withUnsafeBufferPointer { set.contains($0) })
        #expect(Array(String(repeating: "x", count: 64).utf8).withUnsafeBufferPointer { set.contains($0) } == false)
        #expect(set.names == [long])
    }

    /// A session pair whose client keeps only `kept`.
    static func filteringPair() throws -> SessionPair {
        var configuration = HTTP2SessionConfiguration()
        configuration.keptResponseHeaders = kept
        return try SessionPair(client: configuration)
    }

    @Test("a client keeps only the named response headers; status and body arrive as before")
    func filtersResponse() throws {
        let pair = try Self.filteringPair()
        pair.serverEvents.respond = { session, request in
            try session.submitResponse(
                streamID: request.streamID, status: 200,
                headers: [
                    HTTP2Header("server", "nghttpd"), HTTP2Header("content-length", "2"),
                    HTTP2Header("apns-id", "A-1"), HTTP2Header("date", "today"), HTTP2Header("apns-unique-id", "U-1"),
                ],
                body: [1, 2])
        }
        try pair.client.submitRequest(headers: requestHeaders(path: "/1"), body: nil, token: 1)
        try pair.pump()
        let response = try #require(pair.clientEvents.responses[1])
        #expect(response.status == 200)
        #expect(response.body == [1, 2])
        #expect(response.headers.map(\.nameString) == ["apns-id", "apns-unique-id"])
        #expect(response.headers.value(for: "apns-unique-id") == "U-1")
    }

    @Test("without a set every header is kept, :status included")
    func keepsAllByDefault() throws {
        let pair = try SessionPair()
        pair.serverEvents.respond = ServerRecorder.echo
        try pair.client.submitRequest(headers: requestHeaders(path: "/1"), body: nil, token: 1)
        try pair.pump()
        let response = try #require(pair.clientEvents.responses[1])
        #expect(response.headers.map(\.nameString) == [":status", "x-path", "content-type"])
    }

    @Test("dropped headers still count against the header list limit")
    func droppedHeadersCount() throws {
        var configuration = HTTP2SessionConfiguration(maxHeaderListSize: 8_192)
        configuration.keptResponseHeaders = Self.kept
        let pair = try SessionPair(client: configuration)
        pair.serverEvents.respond = { session, request in
            try session.submitResponse(
                streamID: request.streamID, status: 200, headers: SessionLimitsTests.bulkyHeaders(20))
        }
        try pair.client.submitRequest(headers: requestHeaders(path: "/1"), body: nil, token: 1)
        try pair.pump()
        #expect(pair.clientEvents.failures[1]?.kind == .headerListTooLarge(limit: 8_192))
    }

    @Test("many streams answered in an interleaved order each get their own headers")
    func manyStreams() throws {
        let pair = try Self.filteringPair()
        pair.serverEvents.respond = { session, request in
            try session.submitResponse(
                streamID: request.streamID, status: 200,
                headers: [HTTP2Header("date", "x"), HTTP2Header("apns-id", request.path ?? "")])
        }
        for token in UInt64(1)...50 {
            try pair.client.submitRequest(headers: requestHeaders(path: "/\(token)"), body: nil, token: token)
        }
        try pair.pump()
        #expect(pair.clientEvents.responses.count == 50)
        for (token, response) in pair.clientEvents.responses {
            #expect(response.headers.value(for: "apns-id") == "/\(token)")
        }
    }
}
