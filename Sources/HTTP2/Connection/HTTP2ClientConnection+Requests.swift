// Submitting requests, their completions, timeouts, GOAWAY, PING and the end of the connection.

extension HTTP2ClientConnection {
    /// Sends a request. `completion` is called exactly once, on the loop. Submit only while
    /// `availableStreams > 0` (a request beyond the server's limit waits inside nghttp2).
    public func submit(
        headers: HTTP2HeaderBlock?, extraHeaders: HTTP2HeaderBuffer?, body: [UInt8], timeout: Duration?,
        completion: @escaping (Result<HTTP2Response, HTTP2RequestFailure>) -> Void
    ) {
        let deadline = timeout.map { EventLoop.now() &+ $0.clampedNanoseconds } ?? 0
        submit(
            headers: headers, extraHeaders: extraHeaders, body: body, deadline: deadline,
            completion: .closure(completion))
    }

    /// Sends a request whose outcome goes to `onCompletion` with `context`, exactly once, on the
    /// loop (possibly before this returns, if the connection cannot take it). No closure per
    /// request: for an owner that keeps per-request state in its own slots. `deadline` is on the
    /// `EventLoop.now()` clock, 0 for none.
    public func submit(
        headers: HTTP2HeaderBlock?, extraHeaders: HTTP2HeaderBuffer?, body: [UInt8], deadline: UInt64, context: UInt64
    ) {
        submit(
            headers: headers, extraHeaders: extraHeaders, body: body, deadline: deadline, completion: .context(context))
    }

    private func submit(
        headers: HTTP2HeaderBlock?, extraHeaders: HTTP2HeaderBuffer?, body: [UInt8], deadline: UInt64,
        completion: PendingRequests.Completion
    ) {
        guard isReady, let session else {
            let error: HTTP2ConnectionError = if case .closed(let reason) = phase { reason } else { .closedLocally }
            deliver(completion, .failure(HTTP2RequestFailure(kind: .connection(error), mayHaveBeenProcessed: false)))
            return
        }
        let token: UInt64
        if case .context(let context) = completion {
            token = pending.insertContext(context, deadline: deadline)
        } else {
            token = pending.insert(PendingRequests.Entry(completion: completion, streamID: 0, deadline: deadline))
        }
        do {
            let streamID = try session.submitRequest(
                headers: headers, extraHeaders: extraHeaders, body: body, token: token)
            pending.setStreamID(streamID, for: token)
        } catch {
            _ = pending.remove(token)
            deliver(
                completion, .failure(HTTP2RequestFailure(kind: .connection(.http2(error)), mayHaveBeenProcessed: false))
            )
            return
        }
        if deadline != 0, timeoutSweep == nil { scheduleTimeoutSweep() }
        scheduleFlush()
        // A full window of answers read at once resumes as many senders in one turn: writing the
        // first requests while the rest are still being made lets the server start on them, instead
        // of both sides taking turns idling over one big batch (the rest follows in the flush above).
        unflushedRequests += 1
        if unflushedRequests >= Self.earlyFlushRequests && !reading { flush() }
    }

    /// Hands a request's outcome to whoever waits for it.
    func deliver(_ completion: PendingRequests.Completion, _ result: Result<HTTP2Response, HTTP2RequestFailure>) {
        switch completion {
        case .closure(let closure): closure(result)
        case .context(let context): onCompletion?(self, context, result)
        }
    }

    /// Flushes once at the end of this loop iteration, however many requests were submitted in it:
    /// one TLS record and one `send` for a batch instead of one per request.
    func scheduleFlush() {
        guard !flushScheduled else { return }
        flushScheduled = true
        // Strong captures here and in the timers: a weak reference would give the connection a side
        // table (slow retains and releases); `fail` cancels the timers.
        loop.executeBeforeWait { [self] in
            self.flushScheduled = false
            self.flush()
        }
    }

    func scheduleTimeoutSweep() {
        timeoutSweep = loop.schedule(after: Self.timeoutGranularity) { [self] in
            self.timeoutSweep = nil
            for token in self.pending.expired(now: EventLoop.now()) { self.timeOut(token) }
            if !self.isClosed, self.pending.hasDeadlines {
                self.scheduleTimeoutSweep()
            }
        }
    }

    func timeOut(_ token: UInt64) {
        guard let entry = pending[token], let session else { return }
        pending.markTimedOut(token)
        do {
            try session.resetStream(entry.streamID)
        } catch {
            _ = pending.remove(token)
            deliver(entry.completion, .failure(HTTP2RequestFailure(kind: .timedOut, mayHaveBeenProcessed: true)))
        }
        flush()
    }

    func complete(_ token: UInt64, _ result: Result<HTTP2Response, HTTP2RequestFailure>) {
        if let taken = pending.removeContext(token) {
            if taken.timedOut, case .failure = result {
                onCompletion?(
                    self, taken.context, .failure(HTTP2RequestFailure(kind: .timedOut, mayHaveBeenProcessed: true)))
            } else {
                onCompletion?(self, taken.context, result)
            }
            return
        }
        guard let entry = pending.remove(token) else { return }
        if entry.timedOut, case .failure = result {
            deliver(entry.completion, .failure(HTTP2RequestFailure(kind: .timedOut, mayHaveBeenProcessed: true)))
        } else {
            deliver(entry.completion, result)
        }
    }

    /// Stops new requests and closes once open ones finish (sends GOAWAY).
    public func drain() {
        guard !isClosed else { return }
        try? session?.goAway()
        phase = .draining
        onEvent?(self, .draining)
        flush()
    }

    /// Closes at once; open requests fail (as possibly processed, if they were sent).
    public func close() {
        fail(.closedLocally)
    }

    /// The one way out: everything pending is completed, the owner hears `.closed` once.
    func fail(_ error: HTTP2ConnectionError) {
        if isClosed { return }
        phase = .closed(error)
        for timer in [connectTimer, pingTimer, pingDeadline, timeoutSweep].compactMap({ $0 }) { loop.cancel(timer) }
        timeoutSweep = nil
        connectTimer = nil
        pingTimer = nil
        pingDeadline = nil
        closeSocket()
        closeReason = error
        session?.close()  // reports every open stream through didFail(.connectionClosed)
        session?.owner = nil
        for token in pending.tokens {
            guard let entry = pending.remove(token) else { continue }
            deliver(
                entry.completion, .failure(HTTP2RequestFailure(kind: .connection(error), mayHaveBeenProcessed: true)))
        }
        onEvent?(self, .closed(error))
        onEvent = nil
        onCompletion = nil  // the owner's closures may hold it strongly: break the cycle
    }

    // MARK: Idle PING

    func schedulePing() {
        guard let interval = configuration.idlePingInterval else { return }
        pingTimer = loop.schedule(after: interval.clampedNanoseconds) { [self] in pingIfIdle() }
    }

    func pingIfIdle() {
        guard let interval = configuration.idlePingInterval, !isClosed, let session else { return }
        let idle = EventLoop.now() &- lastActivity
        if idle >= interval.clampedNanoseconds, pingDeadline == nil {
            try? session.submitPing()
            pingDeadline = loop.schedule(after: configuration.pingTimeout.clampedNanoseconds) { [self] in
                fail(.timedOut("a PING acknowledgement"))
            }
            flush()
        }
        schedulePing()
    }
}

extension HTTP2ClientConnection: HTTP2ClientSessionDelegate {
    public func session(_ session: HTTP2ClientSession, didReceiveHead response: HTTP2Response, for token: UInt64) {
        pending[token]?.onHead?(response)
    }

    public func session(_ session: HTTP2ClientSession, didReceiveData data: [UInt8], for token: UInt64) {
        pending[token]?.onData?(data)
    }

    public func session(_ session: HTTP2ClientSession, didReceive response: HTTP2Response, for token: UInt64) {
        complete(token, .success(response))
        if isReady { onEvent?(self, .streamsAvailable) }
    }

    public func session(_ session: HTTP2ClientSession, didFail error: HTTP2StreamError, for token: UInt64) {
        let failure: HTTP2RequestFailure
        if error.kind == .connectionClosed, let closeReason {
            failure = HTTP2RequestFailure(kind: .connection(closeReason), mayHaveBeenProcessed: !error.isSafeToRetry)
        } else {
            failure = HTTP2RequestFailure(kind: .stream(error), mayHaveBeenProcessed: !error.isSafeToRetry)
        }
        complete(token, .failure(failure))
        if isReady { onEvent?(self, .streamsAvailable) }
    }

    public func session(_ session: HTTP2ClientSession, didReceiveGoAway goAway: HTTP2GoAway) {
        guard !isClosed else { return }
        lastGoAway = goAway
        if goAway.errorCode != .noError { closeReason = .goAway(goAway.errorCode, debug: goAway.debugText) }
        let wasDraining: Bool = if case .draining = phase { true } else { false }
        phase = .draining
        if !wasDraining { onEvent?(self, .draining) }
    }

    public func session(_ session: HTTP2ClientSession, didReceiveSettings settings: HTTP2Settings) {
        streamLimit = Int(clamping: settings.maxConcurrentStreams)
        if case .awaitingSettings = phase {
            phase = .ready
            if let connectTimer { loop.cancel(connectTimer) }
            connectTimer = nil
            schedulePing()
            onEvent?(self, .ready)
        } else if isReady {
            onEvent?(self, .streamsAvailable)
        }
    }

    public func session(_ session: HTTP2ClientSession, didReceivePingAck payload: UInt64) {
        if let pingDeadline { loop.cancel(pingDeadline) }
        pingDeadline = nil
    }
}
