// Answers on an HTTP/1.1 session: a whole response (Content-Length), a streaming one (chunked for
// HTTP/1.1 clients; for HTTP/1.0 ones the body ends with the connection), or no answer at all
// (reset: HTTP/1.1 cannot refuse one request, so the connection ends after the answers before it).

extension HTTP1ServerSession {
    /// Queues the response to a delivered request. `headers` are validated; the transport writes
    /// its own Content-Length and Connection fields (the handler's are dropped). HEAD, 204 and 304
    /// answers carry no body. Throws `streamClosed` for a request not open or already answered,
    /// `invalidArgument` for a status outside 200-599, `invalidHeader` for a bad field.
    public func submitResponse(streamID: Int32, status: Int, headers: [HTTP2Header] = [], body: [UInt8] = [])
        throws(HTTP2Error)
    {
        let index = try openExchange(streamID, status: status, headers: headers)
        let bodyless = exchanges[index].isHead || status == 204 || status == 304
        exchanges[index].output += Self.head(
            status: status, fields: headers, framing: status == 204 || status == 304 ? .none : .length(body.count),
            keepAlive: exchanges[index].keepAlive)
        if !bodyless { exchanges[index].output += body }
        exchanges[index].answer = .complete
    }

    /// Queues the head of a response whose body follows by ``writeStream(streamID:_:)``.
    public func submitStreamingResponse(streamID: Int32, status: Int, headers: [HTTP2Header] = [])
        throws(HTTP2Error)
    {
        let index = try openExchange(streamID, status: status, headers: headers)
        var exchange = exchanges[index]
        exchange.bodyless = exchange.isHead || status == 204 || status == 304
        exchange.chunked = !exchange.isHTTP10 && !exchange.bodyless
        if !exchange.chunked && !exchange.bodyless {
            // HTTP/1.0: the body ends where the connection does, so nothing may follow it.
            exchange.keepAlive = false
            inputEnded = true
        }
        exchange.output += Self.head(
            status: status, fields: headers,
            framing: exchange.chunked ? .chunked : (exchange.bodyless ? .none : .untilClose),
            keepAlive: exchange.keepAlive)
        exchange.answer = .streaming
        exchanges[index] = exchange
    }

    /// Appends to a streaming response's body (one chunk). Throws `streamClosed` once the exchange
    /// has ended or was never streaming.
    public func writeStream(streamID: Int32, _ bytes: [UInt8]) throws(HTTP2Error) {
        guard let index = index(of: streamID), exchanges[index].answer == .streaming else {
            throw HTTP2Error(.streamClosed(streamID: streamID))
        }
        guard !bytes.isEmpty, !exchanges[index].bodyless else { return }  // an empty chunk would end the body
        if exchanges[index].chunked {
            exchanges[index].output += Array((String(bytes.count, radix: 16) + "\r\n").utf8)
            exchanges[index].output += bytes
            exchanges[index].output += [13, 10]
        } else {
            exchanges[index].output += bytes
        }
    }

    /// Ends a streaming response after what has been written.
    public func finishStream(streamID: Int32) throws(HTTP2Error) {
        guard let index = index(of: streamID), exchanges[index].answer == .streaming else {
            throw HTTP2Error(.streamClosed(streamID: streamID))
        }
        if exchanges[index].chunked { exchanges[index].output += Array("0\r\n\r\n".utf8) }
        exchanges[index].answer = .complete
    }

    /// Bytes of a streaming response not produced yet; 0 for an unknown or ended exchange.
    public func bufferedStreamBytes(streamID: Int32) -> Int {
        index(of: streamID).map { exchanges[$0].pendingBytes } ?? 0
    }

    /// Gives up on a delivered request: no answer; the connection ends once the answers before
    /// it are out. Also cuts a streaming response short: what it has not sent is dropped and the
    /// client sees the body end early.
    /// The delegate hears `errorCode` when the exchange ends.
    public func abandon(streamID: Int32, errorCode: HTTP2ErrorCode = .cancel) throws(HTTP2Error) {
        guard let index = index(of: streamID), exchanges[index].delivered, exchanges[index].answer != .complete
        else {
            throw HTTP2Error(.streamClosed(streamID: streamID))
        }
        // Bytes not yet produced (a queued 100 Continue, a streaming body the client is not reading)
        // are dropped, as a reset drops them: the connection ends without waiting for them.
        exchanges[index].output.removeSubrange(exchanges[index].produced...)
        exchanges[index].answer = .aborted
        exchanges[index].abortCode = errorCode
        exchanges[index].keepAlive = false
        inputEnded = true
        parked = []
    }

    private func openExchange(_ streamID: Int32, status: Int, headers: [HTTP2Header]) throws(HTTP2Error) -> Int {
        guard !isClosed else { throw HTTP2Error(.sessionClosed) }
        guard let index = index(of: streamID), exchanges[index].delivered, !exchanges[index].isAnswered else {
            throw HTTP2Error(.streamClosed(streamID: streamID))
        }
        guard (200...599).contains(status) else {
            throw HTTP2Error(.invalidArgument("status \(status) is outside 200-599"))
        }
        for header in headers {
            try header.validate()
        }
        return index
    }
}
