// Readiness events from the loop, and the flush that follows every change.

extension HTTP2ClientConnection: IOHandler {
    public func readable() {
        guard let io, !isClosed else { return }
        switch phase {
        case .resolving, .connecting: return  // writable() finishes the connect; data waits in the socket
        default: break
        }
        do {
            reading = true
            defer { reading = false }
            let outcome = try io.readAvailable { bytes throws(HTTP2ConnectionError) in try self.deliver(bytes) }
            lastActivity = EventLoop.now()
            try checkHandshake()
            flush()
            if outcome == .endOfFile { fail(.closedByPeer) }
        } catch {
            flush()  // a GOAWAY nghttp2 queued for a protocol error goes out first
            fail(error)
        }
    }

    public func writable() {
        if case .connecting(let addresses, let index) = phase {
            finishConnecting(addresses, index)
            return
        }
        flush()
    }

    public func hangup() {
        guard !isClosed else { return }
        readable()  // read what arrived before the hang-up
        if !isClosed { fail(.closedByPeer) }
    }

    func deliver(_ bytes: UnsafeRawBufferPointer) throws(HTTP2ConnectionError) {
        if case .proxying = phase {
            try receiveFromProxy(bytes)
            return
        }
        guard let session else { return }
        do {
            try session.receive(bytes)
        } catch {
            throw .http2(error)
        }
    }

    /// Writes what the session (or the proxy handshake) has queued; keeps EPOLLOUT only while needed.
    func flush() {
        guard let io, registered else { return }
        unflushedRequests = 0
        let sessionReady: Bool =
            switch phase {
            case .handshaking, .awaitingSettings, .ready, .draining: true
            default: false
            }
        let session = sessionReady ? self.session : nil
        let stillPending: Bool
        do {
            stillPending = try io.flush { buffer, limit in session?.produceOutput(into: &buffer, maxBytes: limit) }
        } catch {
            fail(error)
            return
        }
        if stillPending != writeInterest {
            writeInterest = stillPending
            try? loop.modify(io.socket.fd, interest: stillPending ? [.read, .write] : .read)
        }
        if case .draining = phase, pending.isEmpty, !stillPending {
            fail(.closedLocally)
        }
    }

    func closeSocket() {
        guard let io else { return }
        if registered {
            try? loop.deregister(io.socket.fd)
            registered = false
        }
        io.socket.close()
        self.io = nil
    }
}
