/// An ``HTTP2Responder`` for use off the loop, for a handler that finishes its work on another
/// thread or task: each call is handed to the connection's loop and carried out there.
///
/// Calls return at once, without a result; the same rules apply as for ``HTTP2Responder`` (the
/// first answer wins; answers after the stream or connection ended are ignored). Once the loop has
/// shut down, calls are dropped.
public struct HTTP2SendableResponder: Sendable {
    private let box: ResponderBox

    init(_ responder: HTTP2Responder) {
        box = ResponderBox(responder)
    }

    /// The loop the answer is carried out on.
    public var loop: EventLoop { box.loop }

    public func respond(status: Int, headers: [HTTP2Header] = [], body: [UInt8] = []) {
        let box = self.box
        box.loop.execute { box.responder.respond(status: status, headers: headers, body: body) }
    }

    public func respond(status: Int, headers: HTTP2HeaderBuffer, body: [UInt8] = []) {
        let box = self.box
        box.loop.execute { box.responder.respond(status: status, headers: headers, body: body) }
    }

    /// ``HTTP2Responder/startStreaming(status:headers:onClose:)`` on the loop; `onClose` runs there.
    public func startStreaming(
        status: Int = 200, headers: [HTTP2Header] = [], onClose: @escaping @Sendable (HTTP2StreamEnd) -> Void = { _ in }
    ) {
        let box = self.box
        box.loop.execute { box.responder.startStreaming(status: status, headers: headers, onClose: onClose) }
    }

    /// ``HTTP2Responder/write(_:)`` on the loop. Writes from one thread keep their order; a write
    /// refused at the buffer cap resets the stream, which `onClose` reports.
    public func write(_ bytes: [UInt8]) {
        let box = self.box
        box.loop.execute { box.responder.write(bytes) }
    }

    /// ``HTTP2Responder/finish()`` on the loop.
    public func finish() {
        let box = self.box
        box.loop.execute { box.responder.finish() }
    }

    public func reset(errorCode: HTTP2ErrorCode = .cancel) {
        let box = self.box
        box.loop.execute { box.responder.reset(errorCode: errorCode) }
    }
}

// SAFETY: `responder` (loop-confined) is only read inside work that runs on `loop`, the loop its
// connection belongs to; `loop` itself is Sendable.
private final class ResponderBox: @unchecked Sendable {
    let loop: EventLoop
    let responder: HTTP2Responder

    init(_ responder: HTTP2Responder) {
        self.loop = responder.connection.loop
        self.responder = responder
    }
}
