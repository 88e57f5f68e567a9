import HTTP2
import Testing

@Suite("HTTP/2 session: RST_STREAM, PING and close", .timeLimit(.minutes(1)))
struct SessionResetTests {
    @Test(
        "a server reset reaches the client with its code; only REFUSED_STREAM is safe to resend",
        arguments: [HTTP2ErrorCode.refusedStream, .internalError, .cancel, HTTP2ErrorCode(rawValue: 0xff)])
    func serverReset(code: HTTP2ErrorCode) throws {
        let pair = try SessionPair()
        pair.serverEvents.respond = { session, request in
            try session.submitRstStream(streamID: request.streamID, errorCode: code)
        }
        try pair.client.submitRequest(headers: requestHeaders(path: "/1"), body: [1, 2, 3], token: 5)
        try pair.pump()
        let failure = try #require(pair.clientEvents.failures[5])
        #expect(failure.errorCode == code)
        #expect(failure.kind == (code == .refusedStream ? .refused : .reset(code)))
        #expect(failure.requestSent)
        #expect(failure.isSafeToRetry == (code == .refusedStream))
        #expect(pair.clientEvents.reports == [5: 1])
        #expect(pair.serverEvents.closed.values.first == code)
        #expect(pair.serverFrames.resets.map(\.code) == [code.rawValue])
    }

    @Test("the client cancels a request the server holds; both sides see CANCEL")
    func clientCancel() throws {
        let pair = try SessionPair()
        let streamID = try pair.client.submitRequest(headers: requestHeaders(path: "/1"), body: [1], token: 1)
        try pair.pump()
        try pair.client.resetStream(streamID)
        try pair.pump()
        let failure = try #require(pair.clientEvents.failures[1])
        #expect(failure.kind == .cancelled)
        #expect(failure.requestSent)
        #expect(!failure.isSafeToRetry)
        #expect(pair.serverEvents.closed[streamID] == .cancel)
        #expect(throws: HTTP2Error(.streamClosed(streamID: streamID))) {
            try ServerRecorder.echo(pair.server, pair.serverEvents.pending[0])
        }
    }

    @Test("a request cancelled before it was sent never reaches the server and is safe to retry")
    func cancelBeforeSend() throws {
        let pair = try SessionPair()
        let streamID = try pair.client.submitRequest(headers: requestHeaders(path: "/1"), body: [1], token: 1)
        try pair.client.resetStream(streamID)
        try pair.pump()
        let failure = try #require(pair.clientEvents.failures[1])
        #expect(failure.kind == .cancelled)
        #expect(!failure.requestSent)
        #expect(failure.isSafeToRetry)
        #expect(pair.serverEvents.requests.isEmpty)
        #expect(pair.clientFrames.count(.headers) == 0)
    }

    @Test("resetting a queued request twice stays local (nghttp2 alone would send RST on an idle stream)")
    func doubleCancelQueued() throws {
        let pair = try SessionPair(server: HTTP2SessionConfiguration(maxConcurrentStreams: 1))
        pair.serverEvents.respond = ServerRecorder.echo
        try pair.pump()
        try pair.client.submitRequest(headers: requestHeaders(path: "/1"), body: nil, token: 1)
        let queued = try pair.client.submitRequest(headers: requestHeaders(path: "/2"), body: nil, token: 2)
        try pair.client.resetStream(queued)
        try pair.client.resetStream(queued)
        try pair.pump()
        #expect(pair.clientFrames.resets.isEmpty)
        #expect(pair.clientEvents.responses[1]?.status == 200)
        #expect(pair.clientEvents.failures[2]?.kind == .cancelled)
        #expect(pair.clientEvents.failures[2]?.isSafeToRetry == true)
        #expect(pair.server.failure == nil)
    }

    @Test("PING round trip, both directions")
    func ping() throws {
        let pair = try SessionPair()
        try pair.client.submitPing(payload: 0xDEAD_BEEF_0123_4567)
        try pair.server.submitPing(payload: 42)
        try pair.pump()
        #expect(pair.clientEvents.pingAcks == [0xDEAD_BEEF_0123_4567])
        #expect(pair.serverEvents.pingAcks == [42])
    }

    @Test("close() reports every open request once, safe to retry only if never sent")
    func closeReportsOpenRequests() throws {
        let pair = try SessionPair(server: HTTP2SessionConfiguration(maxConcurrentStreams: 2))
        try pair.pump()
        for token in UInt64(1)...4 {
            try pair.client.submitRequest(headers: requestHeaders(path: "/\(token)"), body: nil, token: token)
        }
        try pair.pump()
        pair.client.close()
        #expect(pair.clientEvents.reports.count == 4)
        #expect(pair.clientEvents.reportedTwice.isEmpty)
        #expect(pair.clientEvents.failures.values.allSatisfy { $0.kind == .connectionClosed })
        #expect(pair.clientEvents.failures.values.filter(\.isSafeToRetry).count == 2)
        #expect(!pair.client.isAlive)
        #expect(throws: HTTP2Error(.sessionClosed)) {
            try pair.client.submitRequest(headers: requestHeaders(path: "/5"), body: nil, token: 5)
        }
        pair.client.close()  // idempotent
        #expect(pair.clientEvents.reports.count == 4)

        pair.server.close()
        #expect(Set(pair.serverEvents.closed.values) == [.cancel])
        #expect(pair.serverEvents.closed.count == 2)
    }

    @Test("a delegate may submit and close from inside a report")
    func reentrantDelegate() throws {
        let pair = try SessionPair()
        pair.serverEvents.respond = ServerRecorder.echo
        pair.clientEvents.onReport = { session, token in
            if token < 5 {
                _ = try? session.submitRequest(
                    headers: requestHeaders(path: "/\(token + 1)"), body: nil, token: token + 1)
            } else if token == 5 {
                _ = try? session.submitRequest(headers: requestHeaders(path: "/6"), body: nil, token: 6)
                session.close()
            }
        }
        try pair.client.submitRequest(headers: requestHeaders(path: "/1"), body: nil, token: 1)
        _ = try? pair.pump()
        #expect(pair.clientEvents.reports.count == 6)
        #expect(pair.clientEvents.reportedTwice.isEmpty)
        #expect(pair.clientEvents.responses.count == 5)
        #expect(pair.clientEvents.failures[6]?.kind == .connectionClosed)
    }
}
