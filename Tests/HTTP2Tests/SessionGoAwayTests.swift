import HTTP2
import Testing

@Suite("HTTP/2 session: GOAWAY", .timeLimit(.minutes(1)))
struct SessionGoAwayTests {
    @Test("streams above last-stream-id are refused (safe to resend); those below complete")
    func lastStreamID() throws {
        let pair = try SessionPair()
        for token in UInt64(1)...10 {
            try pair.client.submitRequest(
                headers: requestHeaders(path: "/\(token)"), body: [UInt8(token)], token: token)
        }
        try pair.pump()
        #expect(pair.serverEvents.pending.count == 10)  // streams 1, 3, ..., 19

        try pair.server.submitGoAway(
            lastStreamID: 9, errorCode: .noError, debugData: Array(#"{"reason":"Shutdown"}"#.utf8))
        var refusedHere = 0
        for request in pair.serverEvents.pending {
            do {
                try ServerRecorder.echo(pair.server, request)
            } catch {
                refusedHere += 1  // the server closed streams above 9 when GOAWAY went out
            }
        }
        try pair.pump()

        let goAway = try #require(pair.clientEvents.goAways.first)
        #expect(goAway.lastStreamID == 9)
        #expect(goAway.errorCode == .noError)
        #expect(goAway.debugText == #"{"reason":"Shutdown"}"#)
        #expect(pair.clientEvents.reportedTwice.isEmpty)
        #expect(pair.clientEvents.reports.count == 10)
        for token in UInt64(1)...5 {
            #expect(pair.clientEvents.responses[token]?.body == [UInt8(token)])
        }
        for token in UInt64(6)...10 {
            let failure = try #require(pair.clientEvents.failures[token])
            #expect(failure.kind == .refused)
            #expect(failure.errorCode == .refusedStream)
            #expect(failure.isSafeToRetry)
        }
        #expect(refusedHere == 0 || refusedHere == 5)
        #expect(!pair.client.canOpenStream)
        #expect(throws: HTTP2Error(.requestNotAllowed)) {
            try pair.client.submitRequest(headers: requestHeaders(path: "/late"), body: nil, token: 99)
        }
        #expect(!pair.client.isAlive)  // GOAWAY received and no streams left
    }

    @Test("requests still queued in the client when GOAWAY arrives are refused, never sent")
    func queuedRequestsRefused() throws {
        let pair = try SessionPair(server: HTTP2SessionConfiguration(maxConcurrentStreams: 1))
        try pair.pump()
        for token in UInt64(1)...5 {
            try pair.client.submitRequest(headers: requestHeaders(path: "/\(token)"), body: nil, token: token)
        }
        try pair.pump()
        let first = try #require(pair.serverEvents.pending.first)
        try pair.server.submitGoAway(lastStreamID: first.streamID, errorCode: .noError)
        try ServerRecorder.echo(pair.server, first)
        try pair.pump()

        #expect(pair.clientEvents.responses[1]?.status == 200)
        #expect(pair.clientEvents.reports.count == 5)
        #expect(pair.clientEvents.reportedTwice.isEmpty)
        for token in UInt64(2)...5 {
            let failure = try #require(pair.clientEvents.failures[token])
            #expect(failure.kind == .refused)
            #expect(!failure.requestSent)
            #expect(failure.isSafeToRetry)
        }
    }

    @Test("a client GOAWAY lets open requests finish, then the session ends")
    func clientGoAway() throws {
        let pair = try SessionPair()
        try pair.client.submitRequest(headers: requestHeaders(path: "/1"), body: nil, token: 1)
        try pair.pump()
        try pair.client.goAway()
        try pair.pump()
        #expect(pair.client.isAlive)
        let request = try #require(pair.serverEvents.pending.first)
        try ServerRecorder.echo(pair.server, request)
        try pair.pump()
        #expect(pair.clientEvents.responses[1]?.status == 200)
        #expect(!pair.client.isAlive)
        #expect(pair.client.failure == nil)
    }

    @Test("GOAWAY with an error code reaches the delegate with its debug data")
    func errorGoAway() throws {
        let pair = try SessionPair()
        try pair.client.submitRequest(headers: requestHeaders(path: "/1"), body: nil, token: 1)
        try pair.pump()
        try pair.server.submitGoAway(
            lastStreamID: 0, errorCode: .enhanceYourCalm, debugData: Array(#"{"reason":"TooManyRequests"}"#.utf8))
        try pair.pump()
        #expect(pair.clientEvents.goAways.first?.errorCode == .enhanceYourCalm)
        #expect(pair.clientEvents.goAways.first?.debugText == #"{"reason":"TooManyRequests"}"#)
        #expect(pair.clientEvents.failures[1]?.kind == .refused)
        #expect(pair.server.failure == nil)  // a GOAWAY the server asked for is not a protocol error
    }
}
