/// Answers one request: a response or a reset, at most once.
///
/// A cheap value (the connection and the stream id). The first `respond` or `reset` answers the
/// stream; later calls are ignored and return false. Calls after the stream or the connection has
/// ended are harmless and return false too.
///
/// The answer to a HEAD request never carries a body (RFC 9110 9.3.2): whatever body a handler
/// gives is dropped here, so that one handler can serve GET and HEAD alike; a streaming answer to
/// HEAD is its headers alone (see ``startStreaming(status:headers:onClose:)``).
///
/// Thread-safety: loop-confined, like its connection: use it on `connection.loop`, for instance from
/// a timer (`connection.loop.schedule(after:)`) for a delayed answer. From other threads use
/// ``sendable``.
public struct HTTP2Responder {
    /// The connection the request arrived on.
    public let connection: HTTP2ServerConnectionContext
    /// The request's stream.
    public let streamID: Int32
    /// The request was HEAD: answers go without a body.
    public let omitsBody: Bool

    init(connection: HTTP2ServerConnectionContext, streamID: Int32, omitsBody: Bool = false) {
        self.connection = connection
        self.streamID = streamID
        self.omitsBody = omitsBody
    }

    /// Sends `status` (200-599), `headers` (validated) and `body`. Returns whether it was queued.
    ///
    /// A response that cannot be sent as given (a status outside 200-599, an invalid header) resets
    /// the stream with INTERNAL_ERROR instead, so the client is not left waiting, and returns false.
    @discardableResult
    public func respond(status: Int, headers: [HTTP2Header] = [], body: [UInt8] = []) -> Bool {
        connection.connection?.respond(streamID, status: status, .list(headers), body: omitsBody ? [] : body) ?? false
    }

    /// Sends `status`, the fields of `headers` (copied now, not validated) and `body`.
    @discardableResult
    public func respond(status: Int, headers: HTTP2HeaderBuffer, body: [UInt8] = []) -> Bool {
        connection.connection?.respond(streamID, status: status, .buffer(headers), body: omitsBody ? [] : body) ?? false
    }

    /// The fast path: headers that never change in a prebuilt block (sent without copying), the
    /// per-response ones in a reused buffer.
    @discardableResult
    public func respond(
        status: Int, headerBlock: HTTP2HeaderBlock?, extraHeaders: HTTP2HeaderBuffer?, body: [UInt8]
    ) -> Bool {
        connection.connection?.respond(
            streamID, status: status, .block(headerBlock, extraHeaders), body: omitsBody ? [] : body) ?? false
    }

    /// Resets the stream with `errorCode` instead of answering (REFUSED_STREAM: safe for the client
    /// to send again). Returns whether the reset was queued.
    @discardableResult
    public func reset(errorCode: HTTP2ErrorCode = .cancel) -> Bool {
        connection.connection?.reset(streamID, errorCode: errorCode) ?? false
    }

    /// Starts a streaming response: `status` and `headers` (validated) now, the body by ``write(_:)``
    /// over time, END_STREAM at ``finish()``. `onClose` is called once, on the loop, when the stream
    /// ends (finished, reset by the client or at the buffer cap, or the connection ended): for
    /// example to mark a listener gone. Returns whether the HEADERS were queued; false (and no
    /// `onClose`) if the stream is already answered or gone. To HEAD it answers the headers alone,
    /// ending the stream, and returns false: there is no body to write.
    @discardableResult
    public func startStreaming(
        status: Int = 200, headers: [HTTP2Header] = [], onClose: @escaping (HTTP2StreamEnd) -> Void = { _ in }
    ) -> Bool {
        if omitsBody {
            _ = respond(status: status, headers: headers)
            return false
        }
        return connection.connection?.startStreaming(streamID, status: status, headers: headers, onClose: onClose)
            ?? false
    }

    /// Appends to a streaming response's body. False if the stream is not streaming, finished or
    /// gone, or if the bytes would take its unsent data past the server's `streamBufferLimit`:
    /// then the stream is reset (ENHANCE_YOUR_CALM) and `onClose` hears it.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        connection.connection?.writeStream(streamID, bytes) ?? false
    }

    /// Ends a streaming response after what has been written. Returns whether it was queued.
    @discardableResult
    public func finish() -> Bool {
        connection.connection?.finishStream(streamID) ?? false
    }

    /// A copy that may be used from any thread: each call hops to the connection's loop.
    public var sendable: HTTP2SendableResponder {
        HTTP2SendableResponder(self)
    }
}

/// The headers of a response, in one of the forms the session takes.
enum ResponseHeaders {
    case list([HTTP2Header])
    case buffer(HTTP2HeaderBuffer)
    case block(HTTP2HeaderBlock?, HTTP2HeaderBuffer?)
}
