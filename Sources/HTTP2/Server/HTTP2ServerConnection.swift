// One accepted connection on its loop: socket <-> ConnectionIO (TLS) <-> HTTP2ServerSession (or
// HTTP1ServerSession, when the server accepts HTTP/1.1) <-> handler. An IOHandler (level-triggered)
// and the session's delegate.
//
//   start --> active --(session done: !wantsRead && !wantsWrite, the client's EOF, a protocol or
//               |        TLS error, idle timeout, server shutdown after its GOAWAY,--> closing
//               |
//               |        no request within firstRequestTimeout)
//               |
//               +--(socket error, hang-up, close(), handshake timeout)--------------> closed
//
//   closing: flushingSession --all written--> flushingTLSClose --written--> lingering
//            (input discarded)                (TLS: close_notify)            (SHUT_WR sent)
//   closing --(the client's EOF, socket error, hang-up, close(), closeTimeout)--> closed
//
//   active:  TLS handshake on the first bytes, ALPN must be h2 (or http/1.1 or none, when HTTP/1.1
//            is accepted; h2c then sniffs the client's first bytes for HTTP/2's preface, see
//            HTTP2ServerConnection+HTTP1.swift); `open` (connectionOpened) at start
//            for h2c, after the handshake for TLS; reads -> session -> handler; a flush after each
//            read batch, and one per loop turn for answers given outside a read.
//   closed:  session.close() (open streams end with CANCEL), deregister, close the descriptor,
//            connectionClosed, uncount.
//
// Invariants:
// - `io` is in use during reads and flushes; the session calls the delegate (and so the handler)
//   from inside them. Whatever the handler asks for meanwhile (a flush, close()) is deferred while
//   `busy > 0` and carried out by `settle()` when the outer call returns: nothing re-enters `io`.
// - EPOLLOUT only while output is queued. While it is, an active connection stops reading
//   (back-pressure: a client that does not read cannot make the server buffer responses).
// - Deregister before closing the descriptor, in one place: finalClose().
// - A stream is answered at most once: `answered` holds the answered streams still open.
// - A streaming response's unsent bytes stay under `streamBufferLimit` (HTTP2ServerConnection+Streaming).

/// An accepted HTTP/2 connection, owned by its loop. See the diagram above.
///
/// Thread-safety: loop-confined (not `Sendable`); the loop holds it while it is registered, its
/// ``ServerLoopState`` while it is open.
final class HTTP2ServerConnection: IOHandler {
    enum State {
        case active
        case closing(Closing)
        case closed
    }

    enum Closing {
        case flushingSession
        case flushingTLSClose
        case lingering
    }

    let id: UInt64
    let loop: EventLoop
    let fd: Int32
    let server: HTTP2Server
    unowned let owner: ServerLoopState
    let context: HTTP2ServerConnectionContext
    let session: HTTP2ServerSession
    /// Which protocol the connection speaks: HTTP/2 unless the server accepts HTTP/1.1, then
    /// undecided until ALPN or the client's first bytes tell.
    var wire: WireProtocol
    /// The HTTP/1.1 session, once `wire` is `.http1`.
    var http1: HTTP1ServerSession?
    /// h2c: the client's first bytes while they could still be HTTP/2's preface.
    var sniffed: [UInt8] = []
    /// The same session as `io.tls`, reachable while `io` is in use.
    let tls: TLSSession?
    var io: ConnectionIO
    var state = State.active
    /// Calls in progress that use `io` or run the handler; see the invariants above.
    var busy = 0
    var closeRequested = false
    var flushScheduled = false
    /// connectionOpened was called (so connectionClosed will be).
    var opened = false
    /// The client's first SETTINGS arrived: TLS and the preface are done.
    var prefaceReceived = false
    /// The handler has been given a request on this connection (``firstRequestTimeout`` no longer applies).
    var requestReceived = false
    var tlsFailed = false
    // SAFETY: `@exclusivity(unchecked)`: touched only on the connection's loop, by calls that
    // never overlap an access to it (insert/contains/remove, two or three per request; `streaming`
    // is asked whether it is empty at every stream's close).
    @exclusivity(unchecked) var answered = StreamIDSet()
    /// Streaming responses still open (also in `answered`), with who to tell when they end.
    @exclusivity(unchecked) var streaming: [Int32: StreamingResponse] = [:]
    /// When plaintext last arrived (EventLoop.now()).
    var lastActivity: UInt64
    var handshakeTimer: TimerID?
    var idleTimer: TimerID?
    var firstRequestTimer: TimerID?
    var closeTimer: TimerID?

    init(
        id: UInt64, socket: TCPSocket, remote: SocketAddress?, server: HTTP2Server, owner: ServerLoopState
    ) throws(HTTP2ConnectionError) {
        let configuration = server.configuration
        if let context = configuration.tls {
            do {
                tls = try TLSSession(context: context)
            } catch {
                throw .tls(error)
            }
        } else {
            tls = nil
        }
        do {
            session = try HTTP2ServerSession(configuration: configuration.session)
        } catch {
            throw .http2(error)
        }
        self.wire = configuration.acceptsHTTP1 ? .undecided : .http2
        self.id = id
        self.loop = owner.loop
        self.fd = socket.fd
        self.server = server
        self.owner = owner
        self.io = ConnectionIO(socket: socket, tls: tls)
        self.context = HTTP2ServerConnectionContext(id: id, loop: owner.loop, remoteAddress: remote)
        self.lastActivity = EventLoop.now()
        session.owner = self
        context.connection = self
    }

    /// Registers for reads, arms the timers, opens h2c connections and sends the server's SETTINGS.
    func start() {
        do {
            try loop.register(fd, interest: .read, handler: self)
        } catch {
            finalClose()
            return
        }
        try? io.socket.setNoDelay()
        let configuration = server.configuration
        handshakeTimer = loop.schedule(after: configuration.handshakeTimeout.clampedNanoseconds) { [self] in
            handshakeTimedOut()
        }
        if let idle = configuration.idleTimeout {
            idleTimer = loop.schedule(after: idle.clampedNanoseconds) { [self] in idleTimerFired() }
        }
        if let wait = configuration.firstRequestTimeout {
            firstRequestTimer = loop.schedule(after: wait.clampedNanoseconds) { [self] in firstRequestTimedOut() }
        }
        if tls == nil { open() }
        settle()
    }

    // MARK: IOHandler

    func readable() {
        switch state {
        case .closed: return
        case .closing: discardInput()
        case .active: readActive()
        }
    }

    func writable() {
        settle()
    }

    func hangup() {
        finalClose()
    }

    private func readActive() {
        busy += 1
        var failure: HTTP2ConnectionError?
        var endOfFile = false
        do {
            let outcome = try io.readAvailable { (bytes) throws(HTTP2ConnectionError) in try self.deliver(bytes) }
            endOfFile = outcome == .endOfFile
            try openIfHandshakeDone()
        } catch {
            failure = error
        }
        busy -= 1
        switch failure {
        case nil where endOfFile:
            beginClosing()  // the client is done sending: write what is answered already, then close
        case nil, .closedLocally?:
            settle()
        case .http2?:
            beginClosing()  // nghttp2 queued a GOAWAY: send it, then close
        case .tls?:
            tlsFailed = true  // an alert may be queued: send it, then close
            beginClosing()
        case .some:
            finalClose()
        }
    }

    /// Plaintext from the client, inside `io.readAvailable`.
    func deliver(_ bytes: UnsafeRawBufferPointer) throws(HTTP2ConnectionError) {
        guard !closeRequested else { throw .closedLocally }
        try openIfHandshakeDone()
        lastActivity = EventLoop.now()
        switch wire {
        case .http2:
            do {
                try session.receive(bytes)
            } catch {
                throw .http2(error)
            }
        case .http1:
            guard let http1 else { return }
            http1.receive(bytes)
            if !prefaceReceived && http1.hasReadARequestHead { requestHeadArrived() }
        case .undecided:
            try sniff(bytes)
        }
    }

    /// Reads and drops what a closing connection receives, until the client's end of stream.
    private func discardInput() {
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        for _ in 0..<ConnectionIO.readsPerCall {
            let socket = io.socket
            let result = scratch.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) -> IOResult in try socket.read(into: buffer) }
            }
            switch result {
            case .success(.bytes): continue
            case .success(.wouldBlock): return
            case .success(.endOfFile), .failure: finalClose()
            }
            return
        }
    }

    // MARK: Settling

    /// Carries out what was deferred while busy: a close, then a flush, then the next state and
    /// the interest that goes with it.
    func settle() {
        guard busy == 0 else { return }  // the outer call settles when it returns
        if closeRequested {
            finalClose()
            return
        }
        switch state {
        case .closed:
            return
        case .active:
            guard flush(sessionOutput: true) else { return }
            guard resumeHTTP1Reading() else { return }
            if closeRequested {
                finalClose()
                return
            }
            if !sessionIsAlive && !io.hasPendingOutput {
                beginClosing()
                return
            }
        case .closing:
            advanceClosing()
            guard case .closing = state else { return }
        }
        updateInterest()
    }

    /// Flushes on a later turn of the loop, once for everything answered until then.
    func requestFlush() {
        guard busy == 0, !flushScheduled else { return }
        flushScheduled = true
        loop.schedule(after: 0) { [self] in
            flushScheduled = false
            settle()
        }
    }

    /// Writes what is queued (and the session's output, when asked); false if that closed the
    /// connection.
    func flush(sessionOutput: Bool) -> Bool {
        busy += 1
        let result: Result<Bool, HTTP2ConnectionError>
        if sessionOutput && !tlsFailed && wire == .http2 {
            result = Result { () throws(HTTP2ConnectionError) in
                try io.flush { buffer, limit in self.session.produceOutput(into: &buffer, maxBytes: limit) }
            }
        } else if sessionOutput && !tlsFailed, let http1 {
            result = Result { () throws(HTTP2ConnectionError) in
                try io.flush { buffer, limit in http1.produceOutput(into: &buffer, maxBytes: limit) }
            }
        } else {
            result = Result { () throws(HTTP2ConnectionError) in try io.flush { _, _ in } }
        }
        busy -= 1
        guard case .success = result else {
            finalClose()
            return false
        }
        return true
    }

    private func updateInterest() {
        let interest: IOInterest
        switch state {
        case .closed: return
        case .active: interest = io.hasPendingOutput ? .write : (http1?.isReadingPaused == true ? [] : .read)
        case .closing(.lingering): interest = .read
        case .closing: interest = io.hasPendingOutput ? [.read, .write] : .read
        }
        do {
            try loop.modify(fd, interest: interest)
        } catch {
            finalClose()
        }
    }
}
