// One event loop's share of the connection pool. Everything here runs on that loop.
//
//   perform(request) -> over the admission limit ? park it (no timer yet) : take a slot (ticket)
//   ticket -> the ready connection with the most free streams (the least loaded) ? submit : wait
//             (oldest first)
//   load -> while requests held outnumber the usable connections, open another, one at a time, up
//           to `maximumConnections` (after the reconnect backoff): N connections carry the load
//           even when one could take it all (APNs spreads a provider's load by connection)
//   connection events: ready / streams freed -> submit waiting tickets; closed -> forget it, reopen
//   if tickets wait. A failed connect delays the next one (ReconnectBackoff); with no usable
//   connection left it also fails the tickets waiting at that moment (not delivered, so the
//   client's retry policy may resend them), else they wait for the connections still open.
//   A request refused before the server processed it (REFUSED_STREAM, above GOAWAY's last stream
//   id) goes back to the front of the queue, up to `maximumResends` times.
//   A request ends in one place, `finish`, which frees its slot, carries out its completion and
//   admits a parked request.
//
// Per-request state lives in `RequestSlots` (a reused table); the connection hands a request's
// ticket back through `onCompletion`. Waiting requests time out through one sweep timer.

import APNs
import HTTP2
import Synchronization

final class LoopPool: @unchecked Sendable {
    // SAFETY: every member is used on `loop` only (LoopPool is handed to `loop.execute`); the entry
    // points from outside (`perform`, `observeShutdown`, `shutdown`) assert it in debug builds, and
    // everything else runs from them or from the loop's own events. The `@exclusivity(unchecked)`
    // members (touched for every request, where dynamic exclusivity checks would cost more than the
    // work they guard) are never accessed across a call that could re-enter the pool: values are
    // copied out before a connection, a continuation or a timer is called.

    typealias Continuation = RequestSlots.Continuation

    struct Parked {
        let request: APNsRequest
        let timeout: Duration
        let completion: RequestCompletion
    }

    static let maximumResends = 5
    /// How often waiting requests are checked for their deadline.
    static let sweepInterval: UInt64 = 50_000_000

    let loop: EventLoop
    let connectionConfiguration: HTTP2ClientConnection.Configuration
    let maximumConnections: Int
    /// Requests held at most (waiting for a stream or in flight); more are parked in `perform`.
    let admissionLimit: Int
    let scheme: String
    let counter: ConnectionCounter
    @exclusivity(unchecked) private var connections: [HTTP2ClientConnection] = []
    /// Connections in `connections` that are draining (GOAWAY): they take no new request.
    private var draining: [ObjectIdentifier] = []
    /// Connections that take new requests: `connections` less the draining ones.
    @exclusivity(unchecked) private var usable = 0
    /// Where `readyConnection` chose last (an index into `connections`): ties go round robin from there.
    @exclusivity(unchecked) private var lastReady = 0
    @exclusivity(unchecked) private var connecting = 0
    /// The connection being opened (at most one at a time), so `shutdown` can close it at once.
    private var opening: HTTP2ClientConnection?
    @exclusivity(unchecked) private var requests = RequestSlots()
    @exclusivity(unchecked) private var waiting = TicketQueue()
    @exclusivity(unchecked) private var parked: [Parked] = []
    @exclusivity(unchecked) private var parkedHead = 0
    @exclusivity(unchecked) private var admitting = false
    private var backoff = ReconnectBackoff()
    private var reconnectTimer: TimerID?
    private var sweepTimer: TimerID?
    @exclusivity(unchecked) private var shuttingDown = false
    private var onShutdown: (() -> Void)?
    /// Told once when shutdown begins (`observeShutdown`): the bulk sender's waiting resends.
    private var shutdownObservers: [Int: () -> Void] = [:]
    private var lastObserver = 0
    @exclusivity(unchecked) private var headers = HTTP2HeaderBuffer()
    /// The fields requests share (the endpoint's, a run of notifications' push type, topic and
    /// priority), built once and sent NO_COPY.
    @exclusivity(unchecked) private var headerCache = RequestHeaderCache()
    /// The last request timeout seen, in nanoseconds: the conversion (Int128 arithmetic) is done
    /// once, not per request.
    @exclusivity(unchecked) private var lastTimeout: Duration = .zero
    @exclusivity(unchecked) private var lastTimeoutNanoseconds: UInt64 = 0

    init(
        loop: EventLoop, connection: HTTP2ClientConnection.Configuration, maximumConnections: Int,
        admissionLimit: Int, scheme: String, counter: ConnectionCounter
    ) {
        self.loop = loop
        self.connectionConfiguration = connection
        self.maximumConnections = maximumConnections
        self.admissionLimit = max(1, admissionLimit)
        self.scheme = scheme
        self.counter = counter
    }

    // MARK: Requests

    /// Requests waiting for a stream (the bulk sender holds back while enough wait).
    var waitingCount: Int { waiting.count }

    /// Takes a request; its continuation is resumed exactly once, on the loop.
    func perform(_ request: APNsRequest, timeout: Duration, continuation: Continuation) {
        perform(request, timeout: timeout, completion: .continuation(continuation))
    }

    /// Takes a device push; its continuation is resumed exactly once, on the loop, with the
    /// answer decoded.
    func perform(_ request: APNsRequest, timeout: Duration, continuation: RequestSlots.DecodedContinuation) {
        perform(request, timeout: timeout, completion: .decoded(continuation))
    }

    /// Takes a request; `completion` is carried out exactly once, on the loop (possibly before
    /// this returns, when the pool is shutting down).
    func perform(_ request: APNsRequest, timeout: Duration, completion: RequestCompletion) {
        // `assert` here rather than `loop.preconditionInEventLoop()`: compiled out of this
        // module's release build, whatever the optimizer does across modules (a request's path).
        assert(loop.inEventLoop, "LoopPool.perform: called off its loop '\(loop.name)'")
        guard !shuttingDown else {
            completion.fail(.shutDown)
            return
        }
        if requests.count >= admissionLimit || parkedHead < parked.count {
            parked.append(Parked(request: request, timeout: timeout, completion: completion))
            return
        }
        admit(request, timeout: timeout, completion: completion)
    }

    private func admit(_ request: APNsRequest, timeout: Duration, completion: RequestCompletion) {
        if timeout != lastTimeout {
            lastTimeout = timeout
            lastTimeoutNanoseconds = timeout.clampedNanoseconds
        }
        let deadline = EventLoop.now() &+ lastTimeoutNanoseconds
        let ticket = requests.acquire(request, timeout: timeout, deadline: deadline, completion: completion)
        if waiting.isEmpty, let connection = readyConnection() {
            submit(ticket, on: connection, deadlineChecked: lastTimeoutNanoseconds > 0)
        } else {
            enqueue(ticket, atFront: false)
        }
        if connecting == 0, usable < maximumConnections { growIfNeeded() }
    }

    /// The one place a request ends without an answer (`complete` is where one ends with it).
    private func finish(_ ticket: UInt64, failing error: APNsClientError) {
        guard let completion = requests.release(ticket) else { return }
        completion.fail(error)
        if parkedHead < parked.count { admitParked() }
    }

    private func admitParked() {
        guard !admitting else { return }  // a request finishing inside admit: the outer loop goes on
        admitting = true
        defer { admitting = false }
        while requests.count < admissionLimit, parkedHead < parked.count {
            let next = parked[parkedHead]
            parkedHead += 1
            if parkedHead == parked.count {
                parked.removeAll(keepingCapacity: true)
                parkedHead = 0
            }
            if shuttingDown {
                next.completion.fail(.shutDown)
            } else {
                admit(next.request, timeout: next.timeout, completion: next.completion)
            }
        }
    }

    /// The connection with the most free streams (the fewest requests in flight, when the server
    /// gives every connection the same limit): requests spread over every open connection instead
    /// of filling one first. Ties go round robin from the last one chosen. Connections are compared
    /// by their own count (no call into nghttp2); only the chosen one is asked (`availableStreams`),
    /// and only if it says no (draining, or a count out of step) are they all asked.
    private func readyConnection() -> HTTP2ClientConnection? {
        let count = connections.count
        if count == 1 { return connections[0].availableStreams > 0 ? connections[0] : nil }
        guard count > 0 else { return nil }
        var best = 0
        var mostFree = 0
        var index = lastReady < count ? lastReady : 0
        for _ in 0..<count {
            index += 1
            if index == count { index = 0 }
            let free = connections[index].freeStreamEstimate
            if free > mostFree {
                best = index
                mostFree = free
            }
        }
        guard mostFree > 0 else { return nil }
        if connections[best].availableStreams > 0 {
            lastReady = best
            return connections[best]
        }
        mostFree = 0
        for candidate in connections.indices {
            let available = connections[candidate].availableStreams
            if available > mostFree {
                best = candidate
                mostFree = available
            }
        }
        guard mostFree > 0 else { return nil }
        lastReady = best
        return connections[best]
    }

    private func enqueue(_ ticket: UInt64, atFront: Bool) {
        if atFront { waiting.prepend(ticket) } else { waiting.append(ticket) }
        if sweepTimer == nil {
            sweepTimer = loop.schedule(after: Self.sweepInterval) { [self] in sweepWaiting() }
        }
    }

    /// Fails waiting requests whose deadline has passed; runs while requests wait.
    private func sweepWaiting() {
        sweepTimer = nil
        let now = EventLoop.now()
        var expired: [UInt64] = []
        waiting.removeAll { ticket in
            guard let index = requests.index(ticket) else { return true }
            guard requests[index].deadline <= now else { return false }
            expired.append(ticket)
            return true
        }
        for ticket in expired { timedOutUnsent(ticket) }
        if !waiting.isEmpty, sweepTimer == nil {
            sweepTimer = loop.schedule(after: Self.sweepInterval) { [self] in sweepWaiting() }
        }
    }

    private func timedOut(_ ticket: UInt64) {
        guard let index = requests.index(ticket) else { return }
        finish(ticket, failing: .timedOut(afterSeconds: requests[index].timeout.secondsAsDouble))
    }

    /// A request whose timeout passed before it went out on a stream: it cannot have reached the
    /// server, so it fails as not delivered (the retry policy may resend it), saying what it waited for.
    private func timedOutUnsent(_ ticket: UInt64) {
        guard let index = requests.index(ticket) else { return }
        let seconds = requests[index].timeout.secondsAsDouble
        let server = "\(connectionConfiguration.host):\(connectionConfiguration.port)"
        let waitedFor =
            if usable > 0 {
                "waiting for a free stream on the connections to \(server)"
            } else if let opening {
                "connecting to \(server) (in \(opening.stageDescription))"
            } else {
                "waiting for a connection to \(server)"
            }
        finish(
            ticket,
            failing: .transport(
                TransportFailure(
                    mayHaveReachedAPNs: false,
                    message: "timed out after \(seconds) s \(waitedFor): not sent, so not delivered")))
    }

    /// Submits waiting requests while a connection has a free stream: any ready one, or only
    /// `freed`, a connection that has just freed streams. The other connections' free streams come
    /// with events of their own, so they are not asked again: in a bulk send requests wait at every
    /// stream's end, and a scan of every connection there would be repeated per request.
    private func drainWaiting(on freed: HTTP2ClientConnection? = nil) {
        func next() -> HTTP2ClientConnection? {
            guard let freed else { return readyConnection() }
            return freed.availableStreams > 0 ? freed : nil
        }
        while !waiting.isEmpty, let connection = next() {
            guard let ticket = waiting.popFirst() else { break }
            guard requests.index(ticket) != nil else { continue }
            submit(ticket, on: connection)
        }
        growIfNeeded()
    }

    /// `deadlineChecked`: the request was admitted just now (its deadline lies ahead), so the clock
    /// is not read again; a request that waited is checked.
    private func submit(_ ticket: UInt64, on connection: HTTP2ClientConnection, deadlineChecked: Bool = false) {
        guard let index = requests.index(ticket), let request = requests[index].request else { return }
        let deadline = requests[index].deadline
        guard deadlineChecked || deadline > EventLoop.now() else {
            timedOutUnsent(ticket)
            return
        }
        let block = headerCache.prepare(request, scheme: scheme, into: &headers)
        connection.submit(
            headers: block, extraHeaders: headers, body: request.body, deadline: deadline, context: ticket)
    }

    /// A connection's answer for `ticket`.
    private func complete(_ ticket: UInt64, _ result: Result<HTTP2Response, HTTP2RequestFailure>) {
        guard let index = requests.index(ticket) else { return }
        switch result {
        case .success(let response):
            guard let answered = requests.releaseAnswered(ticket) else { return }
            answered.completion.complete(
                response, sentID: answered.sentID, isNotification: answered.isNotification)
            if parkedHead < parked.count { admitParked() }
        case .failure(let failure):
            if !failure.mayHaveBeenProcessed, requests[index].resends < Self.maximumResends, !shuttingDown {
                requests[index].resends += 1
                counter.resent.add(1, ordering: .relaxed)
                enqueue(ticket, atFront: true)
                drainWaiting()
                return
            }
            if case .timedOut = failure.kind {
                timedOut(ticket)
            } else {
                finish(
                    ticket,
                    failing: .transport(
                        TransportFailure(mayHaveReachedAPNs: failure.mayHaveBeenProcessed, message: failure.description)
                    ))
            }
        }
    }

    /// What the client reads from `response`, made with one initialiser and handed on at once.
    /// `isNotification`: the answer to a device push, which has no broadcast or channel ids to read
    /// (a server that leaves out `apns-id` gets the sent one, in `APNsClient`).
    /// Filled in field by field into one value: built with the memberwise initialiser and returned,
    /// the whole response was copied and the original destroyed, per answer.
    static func rawResponse(_ response: borrowing HTTP2Response, sentID: String, isNotification: Bool) -> RawResponse {
        var raw = RawResponse(status: response.status)
        raw.apnsID = Self.apnsID(response.headers, sent: sentID)
        raw.uniqueID = response.headers.value(for: "apns-unique-id")
        if !response.body.isEmpty { raw.body = response.body }
        // Broadcast and channel answers; device answers always carry apns-id, so their hot path
        // skips these lookups.
        if raw.apnsID == nil, !isNotification {
            raw.requestID = response.headers.value(for: "apns-request-id")
            raw.channelID = response.headers.value(for: "apns-channel-id")
        }
        return raw
    }

    /// The response's apns-id; the sent string itself when the server echoed it (no new string).
    static func apnsID(_ headers: HTTP2ReceivedHeaders, sent: String) -> String? {
        guard let bytes = headers.valueBytes(for: "apns-id") else { return nil }
        if sent.utf8.elementsEqual(bytes) { return sent }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Connections

    /// Opens another connection while the requests held (in flight or waiting) outnumber the usable
    /// connections: each connection carries at least one before the next opens, so one request
    /// opens one connection and a steady load opens them all. One connect at a time; draining
    /// connections do not count against the limit.
    private func growIfNeeded() {
        guard connecting == 0, usable < maximumConnections, requests.count > usable, !shuttingDown else { return }
        let wait = backoff.wait(now: EventLoop.now())
        if wait > 0 {
            if reconnectTimer == nil {
                reconnectTimer = loop.schedule(after: wait) { [self] in
                    reconnectTimer = nil
                    growIfNeeded()
                }
            }
            return
        }
        connecting += 1
        // Strong references, on purpose: a weak one gives the pool a side table, which makes every
        // retain and release of it take the runtime's slow path, and the pool is retained per
        // request. The cycle ends when the connection closes (it drops both closures then); timers
        // hold the pool until they fire or `shutdown` cancels them.
        let connection = HTTP2ClientConnection.open(on: loop, configuration: connectionConfiguration) {
            [self] connection, event in
            handle(event, from: connection)
        }
        connection.onCompletion = { [self] _, ticket, result in complete(ticket, result) }
        if !connection.isClosed { opening = connection }
    }

    private func handle(_ event: HTTP2ClientConnection.Event, from connection: HTTP2ClientConnection) {
        switch event {
        case .ready:
            connecting -= 1
            opening = nil
            backoff.succeeded()
            connections.append(connection)
            usable += 1
            counter.value.add(1, ordering: .relaxed)
            counter.opened.add(1, ordering: .relaxed)
            // Connected after `shutdown` began: close it, or the shutdown would wait for it forever.
            if shuttingDown {
                connection.close()
                return
            }
            drainWaiting()
        case .streamsAvailable:
            drainWaiting(on: connection)
        case .draining:
            let id = ObjectIdentifier(connection)
            if connections.contains(where: { $0 === connection }), !draining.contains(id) {
                draining.append(id)
                usable -= 1
            }
            growIfNeeded()
        case .closed(let error):
            if let index = connections.firstIndex(where: { $0 === connection }) {
                connections.remove(at: index)
                counter.value.subtract(1, ordering: .relaxed)
                if let drained = draining.firstIndex(of: ObjectIdentifier(connection)) {
                    draining.remove(at: drained)
                } else {
                    usable -= 1
                }
            } else {
                connecting -= 1
                if opening === connection { opening = nil }
                connectFailed(error)
            }
            if shuttingDown {
                finishShutdownIfDone()
            } else {
                drainWaiting()
            }
        }
    }

    private func connectFailed(_ error: HTTP2ConnectionError) {
        backoff.failed(now: EventLoop.now(), jitter: Double.random(in: 0.5...1.0))
        // Another connection carries the load: the waiting requests go to it (the next connect
        // comes after the backoff).
        guard usable == 0 else { return }
        let message = "cannot connect to \(connectionConfiguration.host):\(connectionConfiguration.port): \(error)"
        let failure = TransportFailure(mayHaveReachedAPNs: false, message: message, kind: Self.kind(of: error))
        while let ticket = waiting.popFirst() {
            finish(ticket, failing: .transport(failure))
        }
    }

    /// What a failed connect means for a retry: a certificate that did not verify is met again by
    /// every connection, so the retry policy does not resend into it.
    static func kind(of error: HTTP2ConnectionError) -> TransportFailure.Kind {
        if case .tls(.certificateVerificationFailed) = error { return .certificateVerificationFailed }
        return .other
    }

    /// Runs `observer` on the loop once shutdown begins, after which requests fail at once;
    /// returns an id for `stopObservingShutdown`, or nil when shutdown has begun already.
    func observeShutdown(_ observer: @escaping () -> Void) -> Int? {
        assert(loop.inEventLoop, "LoopPool.observeShutdown: called off its loop '\(loop.name)'")
        guard !shuttingDown else { return nil }
        lastObserver += 1
        shutdownObservers[lastObserver] = observer
        return lastObserver
    }

    func stopObservingShutdown(_ id: Int) {
        shutdownObservers[id] = nil
    }

    func shutdown(_ done: @escaping () -> Void) {
        assert(loop.inEventLoop, "LoopPool.shutdown: called off its loop '\(loop.name)'")
        shuttingDown = true
        onShutdown = done
        let observers = shutdownObservers.values
        shutdownObservers = [:]
        for observer in observers { observer() }
        if let reconnectTimer { loop.cancel(reconnectTimer) }
        if let sweepTimer { loop.cancel(sweepTimer) }
        reconnectTimer = nil
        sweepTimer = nil
        while let ticket = waiting.popFirst() {
            finish(ticket, failing: .shutDown)
        }
        while parkedHead < parked.count {
            parked[parkedHead].completion.fail(.shutDown)
            parkedHead += 1
        }
        parked.removeAll()
        parkedHead = 0
        for connection in connections { connection.close() }
        // A connect still under way would hold the shutdown until its own timeout.
        opening?.close()
        finishShutdownIfDone()
    }

    private func finishShutdownIfDone() {
        guard shuttingDown, connections.isEmpty, connecting == 0, let done = onShutdown else { return }
        onShutdown = nil
        done()
    }
}

/// Open connections across a transport's pools, readable from any thread.
final class ConnectionCounter: Sendable {
    let value = Atomic<Int>(0)
    /// Requests sent again after the server refused them unprocessed.
    let resent = Atomic<Int>(0)
    /// Connections that became ready, since the transport started.
    let opened = Atomic<Int>(0)
}
