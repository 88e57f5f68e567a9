/// An ``HTTP2Responder`` for use off the loop, for a handler that finishes its work on another
/// thread or task: each call is handed to the connection's loop and carried out there.
///
/// Calls return at once, without a result; the same rules apply as for ``HTTP2Responder`` (the
/// first answer wins; answers after the stream or connection ended are ignored). Once the loop has
/// shut down, calls are dropped.
public struct HTTP2SendableResponder: Sendable {
    /// The responder, used only in work run on its connection's loop.
    private let bound: LoopBound<HTTP2Responder>

    init(_ responder: HTTP2Responder) {
        bound = LoopBound(responder, loop: responder.connection.loop)
    }

    /// The loop the answer is carried out on.
    public var loop: EventLoop { bound.loop }

    public func respond(status: Int, headers: [HTTP2Header] = [], body: [UInt8] = []) {
        let bound = self.bound
        bound.loop.execute { bound.value.respond(status: status, headers: headers, body: body) }
    }

    public func respond(status: Int, headers: HTTP2HeaderBuffer, body: [UInt8] = []) {
        let bound = self.bound
        bound.loop.execute { bound.value.respond(status: status, headers: headers, body: body) }
    }

    /// ``HTTP2Responder/startStreaming(status:headers:onClose:)`` on the loop; `onClose` runs there.
    public func startStreaming(
        status: Int = 200, headers: [HTTP2Header] = [], onClose: @escaping @Sendable (HTTP2StreamEnd) -> Void = { _ in }
    ) {
        let bound = self.bound
        bound.loop.execute { bound.value.startStreaming(status: status, headers: headers, onClose: onClose) }
    }

    /// ``HTTP2Responder/write(_:)`` on the loop. Writes from one thread keep their order; a write
    /// refused at the buffer cap resets the stream, which `onClose` reports.
    public func write(_ bytes: [UInt8]) {
        let bound = self.bound
        bound.loop.execute { bound.value.write(bytes) }
    }

    /// ``HTTP2Responder/finish()`` on the loop.
    public func finish() {
        let bound = self.bound
        bound.loop.execute { bound.value.finish() }
    }

    public func reset(errorCode: HTTP2ErrorCode = .cancel) {
        let bound = self.bound
        bound.loop.execute { bound.value.reset(errorCode: errorCode) }
    }
}
