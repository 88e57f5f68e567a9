// The connection between the session and the handler: requests out, answers and connection
// controls in. Everything the handler asks for is refused (false) unless the connection is active.

extension HTTP2ServerConnection: HTTP2ServerSessionDelegate {
    func session(_ session: HTTP2ServerSession, didReceive request: HTTP2Request) {
        guard case .active = state, !closeRequested else { return }  // closing: session.close() cancels it
        if !requestReceived { noteFirstRequest() }
        // Compared as bytes: no String per request on the hot path.
        let isHead = request.headers.firstValue(named: ":method", is: "HEAD")
        server.handler.handle(
            request, responder: HTTP2Responder(connection: context, streamID: request.streamID, omitsBody: isHead))
    }

    /// A request has reached the handler: ``HTTP2Server/Configuration/firstRequestTimeout`` no longer applies.
    func noteFirstRequest() {
        requestReceived = true
        if let firstRequestTimer { loop.cancel(firstRequestTimer) }
        firstRequestTimer = nil
    }

    func session(_ session: HTTP2ServerSession, didCloseStream streamID: Int32, errorCode: HTTP2ErrorCode) {
        answered.remove(streamID)
        if !streaming.isEmpty, let stream = streaming.removeValue(forKey: streamID) {
            streamEnded(stream, errorCode: errorCode)
        }
    }

    func session(_ session: HTTP2ServerSession, didReceiveSettings settings: HTTP2Settings) {
        guard !prefaceReceived else { return }
        prefaceReceived = true
        if let handshakeTimer { loop.cancel(handshakeTimer) }
        handshakeTimer = nil
    }

    /// TLS: once the handshake is done, checks ALPN, records the client's certificate and opens.
    func openIfHandshakeDone() throws(HTTP2ConnectionError) {
        guard !opened, let tls, tls.isHandshakeComplete else { return }
        if wire == .undecided {
            choose(tls.negotiatedALPN == "h2" ? .http2 : .http1)  // http/1.1, or no ALPN at all
        } else if tls.negotiatedALPN != "h2" {
            throw .tls(.alpnMismatch(got: tls.negotiatedALPN, offered: ["h2"]))
        }
        context.peerCertificate = tls.peerCertificate
        open()
    }

    /// Tells the handler the connection is ready.
    func open() {
        opened = true
        busy += 1
        server.handler.connectionOpened(context)
        busy -= 1
    }

    var isAcceptingAnswers: Bool {
        guard case .active = state else { return false }
        return !closeRequested
    }

    // MARK: Answers

    func respond(_ streamID: Int32, status: Int, _ headers: ResponseHeaders, body: [UInt8]) -> Bool {
        loop.preconditionInEventLoop()
        guard isAcceptingAnswers, !answered.contains(streamID) else { return false }
        if let http1 { return respondHTTP1(http1, streamID, status: status, headers, body: body) }
        do {
            switch headers {
            case .list(let list):
                try session.submitResponse(streamID: streamID, status: status, headers: list, body: body)
            case .buffer(let buffer):
                try session.submitResponse(
                    streamID: streamID, status: status, headerBlock: nil, extraHeaders: buffer, body: body)
            case .block(let block, let extra):
                try session.submitResponse(
                    streamID: streamID, status: status, headerBlock: block, extraHeaders: extra, body: body)
            }
        } catch {
            switch error.kind {
            case .invalidHeader, .invalidArgument:
                reset(streamID, errorCode: .internalError)  // a handler bug: do not leave the client waiting
            default:
                break  // the stream or the session has ended
            }
            return false
        }
        answered.insert(streamID)
        requestFlush()
        return true
    }

    @discardableResult
    func reset(_ streamID: Int32, errorCode: HTTP2ErrorCode) -> Bool {
        loop.preconditionInEventLoop()
        guard isAcceptingAnswers, !answered.contains(streamID) else { return false }
        do {
            if let http1 {
                try http1.abandon(streamID: streamID, errorCode: errorCode)
            } else {
                try session.submitRstStream(streamID: streamID, errorCode: errorCode)
            }
        } catch {
            return false
        }
        answered.insert(streamID)
        requestFlush()
        return true
    }

    // MARK: Connection controls

    var openStreams: Int { http1?.openStreamCount ?? session.openStreamCount }

    func setMaxConcurrentStreams(_ count: UInt32) -> Bool {
        guard isAcceptingAnswers, wire == .http2 else { return false }
        do {
            try session.submitSettings(maxConcurrentStreams: count)
        } catch {
            return false
        }
        requestFlush()
        return true
    }

    func goAway(lastStreamID: Int32?, errorCode: HTTP2ErrorCode, debugData: [UInt8]) -> Bool {
        guard isAcceptingAnswers else { return false }
        if let http1 {
            http1.finishAfterCurrentRequests()  // HTTP/1.1's GOAWAY: Connection: close
            requestFlush()
            return true
        }
        do {
            try session.submitGoAway(lastStreamID: lastStreamID, errorCode: errorCode, debugData: debugData)
        } catch {
            return false
        }
        requestFlush()
        return true
    }

    /// The handler's close(): now, or when the call in progress returns.
    func requestClose() {
        if busy > 0 {
            closeRequested = true
        } else {
            finalClose()
        }
    }
}
