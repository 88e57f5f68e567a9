import HTTP2
import Testing

@Suite("HTTP/2 session: large bodies and flow control", .timeLimit(.minutes(1)))
struct SessionFlowControlTests {
    @Test("1 MB each way through 64 KB windows: WINDOW_UPDATEs flow both ways and bodies arrive intact")
    func megabyteEachWay() throws {
        let limits = HTTP2SessionConfiguration(maxBodySize: 2 << 20)
        let pair = try SessionPair(client: limits, server: limits)
        let requestBody = patternBody(count: 1 << 20, seed: 1)
        let responseBody = patternBody(count: 1 << 20, seed: 2)
        pair.serverEvents.respond = { session, request in
            try session.submitResponse(streamID: request.streamID, status: 200, body: responseBody)
        }
        try pair.client.submitRequest(headers: requestHeaders(path: "/upload"), body: requestBody, token: 1)
        let rounds = try pair.pump()

        #expect(pair.serverEvents.requests.first?.body == requestBody)
        let response = try #require(pair.clientEvents.responses[1])
        #expect(response.body == responseBody)
        #expect(rounds >= 16)  // 1 MB cannot cross a 64 KB window in fewer round trips
        #expect(pair.serverFrames.count(.windowUpdate) >= 16)
        #expect(pair.clientFrames.count(.windowUpdate) >= 16)
    }

    @Test("several large bodies share the connection window")
    func parallelLargeBodies() throws {
        let limits = HTTP2SessionConfiguration(maxBodySize: 1 << 20)
        let pair = try SessionPair(client: limits, server: limits)
        pair.serverEvents.respond = ServerRecorder.echo
        for token in UInt64(1)...8 {
            try pair.client.submitRequest(
                headers: requestHeaders(path: "/\(token)"), body: patternBody(count: 300_000, seed: token), token: token
            )
        }
        try pair.pump()
        #expect(pair.clientEvents.responses.count == 8)
        for token in UInt64(1)...8 {
            #expect(pair.clientEvents.responses[token]?.body == patternBody(count: 300_000, seed: token))
        }
    }

    @Test("larger configured windows need fewer round trips")
    func largerWindows() throws {
        let wide = HTTP2SessionConfiguration(
            initialWindowSize: 4 << 20, connectionWindowSize: 8 << 20, maxBodySize: 2 << 20)
        let pair = try SessionPair(client: wide, server: wide)
        pair.serverEvents.respond = ServerRecorder.echo
        let body = patternBody(count: 1 << 20, seed: 3)
        try pair.client.submitRequest(headers: requestHeaders(path: "/wide"), body: body, token: 1)
        let rounds = try pair.pump()
        #expect(pair.clientEvents.responses[1]?.body == body)
        #expect(rounds < 8)
    }
}
