import HTTP2
import Testing

@Suite("HTTP/2 session: many streams and MAX_CONCURRENT_STREAMS", .timeLimit(.minutes(1)))
struct SessionConcurrencyTests {
    static func body(for token: UInt64) -> [UInt8] {
        Array(#"{"aps":{"alert":"notification \#(token)"}}"#.utf8)
    }

    @Test("1000 concurrent requests are each answered once, bodies matched by token, in any order")
    func thousandConcurrent() throws {
        let pair = try SessionPair(server: HTTP2SessionConfiguration(maxConcurrentStreams: 1000))
        try pair.pump()
        let staticHeaders = try HTTP2HeaderBlock([
            HTTP2Header(":method", "POST"), HTTP2Header(":scheme", "https"),
            HTTP2Header(":authority", "api.push.example"), HTTP2Header("apns-topic", "com.example.app"),
            HTTP2Header("apns-push-type", "alert"),
        ])
        var perRequest = HTTP2HeaderBuffer()
        var streamOf: [UInt64: Int32] = [:]
        for token in UInt64(1)...1000 {
            perRequest.removeAll()
            perRequest.append(":path", "/3/device/\(token)", neverIndex: true)
            perRequest.append("apns-id", "00000000-0000-0000-0000-\(String(token, radix: 16))", neverIndex: true)
            streamOf[token] = try pair.client.submitRequest(
                headers: staticHeaders, extraHeaders: perRequest, body: Self.body(for: token), token: token)
        }
        #expect(pair.client.openStreamCount == 1000)
        try pair.pump()
        #expect(pair.serverEvents.pending.count == 1000)

        var random = SeededRandom(seed: 7)
        for request in pair.serverEvents.pending.shuffled(using: &random) {
            try ServerRecorder.echo(pair.server, request)
        }
        try pair.pump()

        #expect(pair.clientEvents.reports.count == 1000)
        #expect(pair.clientEvents.reportedTwice.isEmpty)
        #expect(pair.clientEvents.failures.isEmpty)
        for token in UInt64(1)...1000 {
            let response = try #require(pair.clientEvents.responses[token])
            #expect(response.status == 200)
            #expect(response.body == Self.body(for: token))
            #expect(response.headers.value(for: "x-path") == "/3/device/\(token)")
        }
        let first = try #require(pair.serverEvents.requests.first { $0.streamID == streamOf[1] })
        #expect(first.headers.map(\.nameString).prefix(4).allSatisfy { $0.hasPrefix(":") })
        #expect(first.headers.value(for: "apns-id") == "00000000-0000-0000-0000-1")
        #expect(pair.client.openStreamCount == 0)
        #expect(pair.server.openStreamCount == 0)
        #expect(pair.serverEvents.closed.count == 1000)
    }

    @Test("a server starting at MAX_CONCURRENT_STREAMS=1 and raising it to 1000 is seen by the client")
    func concurrencyRaised() throws {
        let pair = try SessionPair(server: HTTP2SessionConfiguration(maxConcurrentStreams: 1))
        #expect(pair.client.remoteMaxConcurrentStreams == 100)  // nghttp2's assumption before SETTINGS
        try pair.pump()
        #expect(pair.client.remoteMaxConcurrentStreams == 1)
        #expect(pair.client.availableStreams == 1)
        #expect(pair.clientEvents.settings.last?.maxConcurrentStreams == 1)

        for token in UInt64(1)...3 {
            try pair.client.submitRequest(headers: requestHeaders(path: "/\(token)"), body: [1], token: token)
        }
        #expect(pair.client.availableStreams == 0)
        #expect(!pair.client.canOpenStream)
        try pair.pump()
        #expect(pair.serverEvents.pending.count == 1)  // the other two wait inside the client's nghttp2

        try pair.server.submitSettings(maxConcurrentStreams: 1000)
        try pair.pump()
        #expect(pair.client.remoteMaxConcurrentStreams == 1000)
        #expect(pair.clientEvents.settings.last?.maxConcurrentStreams == 1000)
        #expect(pair.client.availableStreams == 997)
        #expect(pair.serverEvents.pending.count == 3)

        for request in pair.serverEvents.pending {
            try ServerRecorder.echo(pair.server, request)
        }
        try pair.pump()
        #expect(pair.clientEvents.responses.count == 3)
        #expect(pair.client.availableStreams == 1000)
    }

    @Test("the client's requests wait in nghttp2 while the server allows one stream, then all complete")
    func queuedBehindLimit() throws {
        let pair = try SessionPair(server: HTTP2SessionConfiguration(maxConcurrentStreams: 1))
        pair.serverEvents.respond = ServerRecorder.echo
        try pair.pump()
        for token in UInt64(1)...50 {
            try pair.client.submitRequest(
                headers: requestHeaders(path: "/\(token)"), body: Self.body(for: token), token: token)
        }
        try pair.pump()
        #expect(pair.clientEvents.responses.count == 50)
        #expect(pair.clientEvents.reportedTwice.isEmpty)
        #expect(pair.clientEvents.responses.allSatisfy { $0.value.body == Self.body(for: $0.key) })
    }

    @Test("a stream opened before 1,100 others is still answered to its own token, as are they")
    func streamOutlivingThousandOthers() throws {
        // The client remembers each stream's slot by stream id in a table of 1,024 entries; stream 1
        // and stream 2,049 share one. The first stays open while the others come and go, so its
        // entry is taken over and its response must be found another way.
        let pair = try SessionPair(server: HTTP2SessionConfiguration(maxConcurrentStreams: 2000))
        try pair.pump()
        let count: UInt64 = 1101
        for token in UInt64(1)...count {
            try pair.client.submitRequest(
                headers: requestHeaders(path: "/3/device/\(token)"), body: Self.body(for: token), token: token)
        }
        try pair.pump()
        #expect(pair.serverEvents.pending.count == Int(count))
        let first = try #require(pair.serverEvents.pending.first { $0.streamID == 1 })
        var random = SeededRandom(seed: 11)
        for request in pair.serverEvents.pending.filter({ $0.streamID != 1 }).shuffled(using: &random) {
            try ServerRecorder.echo(pair.server, request)
        }
        try pair.pump()
        #expect(pair.clientEvents.responses.count == Int(count) - 1)
        try ServerRecorder.echo(pair.server, first)
        try pair.pump()

        #expect(pair.clientEvents.reports.count == Int(count))
        #expect(pair.clientEvents.reportedTwice.isEmpty)
        #expect(pair.clientEvents.failures.isEmpty)
        for token in UInt64(1)...count {
            let response = try #require(pair.clientEvents.responses[token])
            #expect(response.body == Self.body(for: token))
            #expect(response.headers.value(for: "x-path") == "/3/device/\(token)")
        }
        #expect(pair.client.openStreamCount == 0)
    }
}
