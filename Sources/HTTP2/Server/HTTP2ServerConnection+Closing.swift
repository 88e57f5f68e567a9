// Ending a connection: the closing phases (see the diagram in HTTP2ServerConnection.swift), the
// final close, and the timers that lead there.

extension HTTP2ServerConnection {
    /// Server shutdown: GOAWAY (last stream processed), then close.
    func shutDown() {
        guard case .active = state else { return }  // closing connections finish on their own
        if wire == .http2 {
            try? session.submitGoAway(
                lastStreamID: nil, errorCode: .noError, debugData: server.configuration.shutdownGoAwayDebugData)
        }
        beginClosing()
    }

    /// Leaves `active`: from now on input is discarded and only queued output is written, for at
    /// most `closeTimeout`.
    func beginClosing() {
        guard case .active = state else { return }
        state = .closing(.flushingSession)
        cancelTimers()
        closeTimer = loop.schedule(after: server.configuration.closeTimeout.clampedNanoseconds) { [self] in
            closeTimer = nil
            finalClose()
        }
        settle()
    }

    /// Moves through the closing phases as far as the socket allows.
    func advanceClosing() {
        while case .closing(let phase) = state {
            switch phase {
            case .flushingSession, .flushingTLSClose:
                guard flush(sessionOutput: phase == .flushingSession) else { return }
                guard !io.hasPendingOutput else { return }  // wait for EPOLLOUT
                if phase == .flushingSession, let tls, !tlsFailed {
                    tls.close()  // queues close_notify
                    state = .closing(.flushingTLSClose)
                    continue
                }
                do {
                    try System.shutdownWrite(fd)
                } catch {
                    finalClose()
                    return
                }
                state = .closing(.lingering)
            case .lingering:
                return
            }
        }
    }

    /// The one way out: the session reports its open streams closed, the descriptor is
    /// deregistered then closed, the handler hears about it, and the server stops counting it.
    func finalClose() {
        if case .closed = state { return }
        state = .closed
        cancelTimers()
        if let closeTimer { loop.cancel(closeTimer) }
        closeTimer = nil
        busy += 1
        session.close()
        http1?.close()
        busy -= 1
        try? loop.deregister(fd)
        io.socket.close()
        owner.connections[id] = nil
        context.connection = nil
        if opened { server.handler.connectionClosed(context) }
        context.userData = nil
        server.connectionEnded()
    }

    private func cancelTimers() {
        if let handshakeTimer { loop.cancel(handshakeTimer) }
        if let idleTimer { loop.cancel(idleTimer) }
        if let firstRequestTimer { loop.cancel(firstRequestTimer) }
        handshakeTimer = nil
        idleTimer = nil
        firstRequestTimer = nil
    }

    func handshakeTimedOut() {
        handshakeTimer = nil
        guard !prefaceReceived, case .active = state else { return }
        finalClose()
    }

    /// No request within `firstRequestTimeout` of the accept (a client that sent the preface, or
    /// part of a request, and nothing more): GOAWAY, as for an idle connection, and close.
    func firstRequestTimedOut() {
        firstRequestTimer = nil
        guard !requestReceived, case .active = state else { return }
        if wire == .http2 {
            try? session.submitGoAway(
                lastStreamID: nil, errorCode: .noError, debugData: server.configuration.idleGoAwayDebugData)
        }
        beginClosing()
    }

    /// Idle: no plaintext for `idleTimeout` and no request waiting for the handler. Then GOAWAY
    /// and close; otherwise check again when the connection could next be idle.
    func idleTimerFired() {
        idleTimer = nil
        guard case .active = state, let idle = server.configuration.idleTimeout?.clampedNanoseconds else { return }
        let quiet = EventLoop.now() &- lastActivity
        // An open streaming response is activity still to come, like an unanswered request.
        let awaitingAnswers = openStreams > answered.count - streaming.count
        if quiet >= idle && !awaitingAnswers {
            if wire == .http2 {
                try? session.submitGoAway(
                    lastStreamID: nil, errorCode: .noError, debugData: server.configuration.idleGoAwayDebugData)
            }
            beginClosing()
            return
        }
        let next = awaitingAnswers || quiet >= idle ? idle : idle - quiet
        idleTimer = loop.schedule(after: next) { [self] in idleTimerFired() }
    }
}
