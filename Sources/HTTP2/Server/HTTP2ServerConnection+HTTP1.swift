// HTTP/1.1 on a server connection (`Configuration.acceptsHTTP1`): choosing the protocol, and the
// HTTP/1.1 session's side of the connection. The handler and its responders are the same as for
// HTTP/2; a request's `streamID` numbers it on the connection (1, 3, 5, ...).
//
//   TLS:  ALPN "h2" -> HTTP/2; "http/1.1", or no ALPN from the client -> HTTP/1.1
//   h2c:  the client's first bytes: HTTP/2's preface (`PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n`) -> HTTP/2;
//         anything that stops matching it -> HTTP/1.1 (the bytes read so far go to that session)
//
// Until the choice nothing is written: HTTP/2's SETTINGS wait for it, so an HTTP/1.1 client never
// sees them.

/// Which protocol a server connection speaks.
enum WireProtocol {
    case undecided
    case http2
    case http1
}

extension HTTP2ServerConnection {
    /// The client connection preface every HTTP/2 client sends first (RFC 9113 3.4).
    static let http2Preface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    /// h2c, protocol undecided: keeps the bytes while they match the preface, then chooses.
    func sniff(_ bytes: UnsafeRawBufferPointer) throws(HTTP2ConnectionError) {
        sniffed.append(contentsOf: bytes)
        let compared = min(sniffed.count, Self.http2Preface.count)
        let isPreface = sniffed[..<compared].elementsEqual(Self.http2Preface[..<compared])
        guard !isPreface || sniffed.count >= Self.http2Preface.count else { return }  // wait for more
        let input = sniffed
        sniffed = []
        choose(isPreface ? .http2 : .http1)
        try input.withUnsafeBytes { buffer in
            Result { () throws(HTTP2ConnectionError) in try deliver(buffer) }
        }.get()
    }

    /// Fixes the protocol; an HTTP/1.1 session gets the server's limits.
    func choose(_ chosen: WireProtocol) {
        wire = chosen
        guard chosen == .http1 else { return }
        var configuration = HTTP1SessionConfiguration(server.configuration.session)
        configuration.scheme = tls == nil ? "http" : "https"
        let session = HTTP1ServerSession(configuration: configuration)
        session.delegate = self
        http1 = session
    }

    /// The protocol session still has something to say (undecided: yes, it has not started).
    var sessionIsAlive: Bool {
        switch wire {
        case .undecided: return true
        case .http2: return session.isAlive
        case .http1: return http1?.isAlive ?? false
        }
    }

    /// Pipelining: once answers have left, parses input that waited for room, and flushes what
    /// that answered. False if the connection closed meanwhile.
    func resumeHTTP1Reading() -> Bool {
        while let http1, http1.isReadingPaused, !closeRequested {
            busy += 1
            let resumed = http1.resumeReading()
            busy -= 1
            guard resumed else { break }
            guard flush(sessionOutput: true) else { return false }
        }
        return true
    }

    /// HTTP/1.1's counterpart of the HTTP/2 preface: a whole request head arrived within
    /// `handshakeTimeout`.
    func requestHeadArrived() {
        prefaceReceived = true
        if let handshakeTimer { loop.cancel(handshakeTimer) }
        handshakeTimer = nil
    }

    /// A whole response over HTTP/1.1. One the session refuses (a status outside 200-599, a bad
    /// field: a handler bug) becomes a bodiless 500, so the client is not left waiting.
    func respondHTTP1(
        _ http1: HTTP1ServerSession, _ streamID: Int32, status: Int, _ headers: ResponseHeaders, body: [UInt8]
    ) -> Bool {
        let list: [HTTP2Header]
        switch headers {
        case .list(let headers): list = headers
        case .buffer(let buffer): list = buffer.headers
        case .block(let block, let extra): list = (block?.headers ?? []) + (extra?.headers ?? [])
        }
        do {
            try http1.submitResponse(streamID: streamID, status: status, headers: list, body: body)
        } catch {
            switch error.kind {
            case .invalidHeader, .invalidArgument:
                if (try? http1.submitResponse(streamID: streamID, status: 500)) != nil { answered.insert(streamID) }
                requestFlush()
            default:
                break
            }
            return false
        }
        answered.insert(streamID)
        requestFlush()
        return true
    }
}

extension HTTP2ServerConnection: HTTP1ServerSessionDelegate {
    func session(_ session: HTTP1ServerSession, didReceive request: HTTP2Request) {
        guard case .active = state, !closeRequested else { return }
        if !requestReceived { noteFirstRequest() }
        server.handler.handle(request, responder: HTTP2Responder(connection: context, streamID: request.streamID))
    }

    func session(_ session: HTTP1ServerSession, didCloseStream streamID: Int32, errorCode: HTTP2ErrorCode) {
        answered.remove(streamID)
        if !streaming.isEmpty, let stream = streaming.removeValue(forKey: streamID) {
            streamEnded(stream, errorCode: errorCode)
        }
    }
}
