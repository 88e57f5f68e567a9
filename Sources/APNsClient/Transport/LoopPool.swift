// One event loop's share of the connection pool. Everything here runs on that loop.
//
//   dispatch(job) -> a ready connection with a free stream ? submit : wait (and open a connection
//                    if the pool may grow, after the reconnect backoff)
//   connection events: ready / streams freed -> submit waiting jobs; closed -> forget it, reopen
//   if jobs wait. A failed connect fails the jobs waiting at that moment (not delivered, so the
//   client's retry policy may resend them) and delays the next connect: 100 ms doubling to 30 s.
//   A job refused before the server processed it (REFUSED_STREAM, above GOAWAY's last stream id)
//   goes back to the front of the queue, up to `maximumResends` times.

import APNs
import HTTP2
import Synchronization

final class LoopPool: @unchecked Sendable {
    // SAFETY: every member is used on `loop` only (LoopPool is handed to `loop.execute`).

    // SAFETY: made on the caller's thread, then used on `loop` only once handed over.
    final class Job: @unchecked Sendable {
        let request: APNsRequest
        let deadline: UInt64
        let timeout: Duration
        var completion: ((Result<RawResponse, APNsClientError>) -> Void)?
        var resends = 0
        var timer: TimerID?

        init(request: APNsRequest, timeout: Duration, completion: @escaping (Result<RawResponse, APNsClientError>) -> Void) {
            self.request = request
            self.timeout = timeout
            self.deadline = EventLoop.now() &+ timeout.clampedNanoseconds
            self.completion = completion
        }

        func finish(_ result: Result<RawResponse, APNsClientError>) {
            completion?(result)
            completion = nil
        }
    }

    static let maximumResends = 5
    static let neverIndexed: Set<String> = [":path", "apns-id", "apns-expiration", "apns-collapse-id"]

    let loop: EventLoop
    let connectionConfiguration: HTTP2ClientConnection.Configuration
    let maximumConnections: Int
    let scheme: String
    let counter: ConnectionCounter
    private var connections: [HTTP2ClientConnection] = []
    private var connecting = 0
    private var waiting: [Job] = []
    private var waitingHead = 0
    private var consecutiveFailures = 0
    private var nextConnectAt: UInt64 = 0
    private var reconnectTimer: TimerID?
    private var shuttingDown = false
    private var onShutdown: (() -> Void)?
    private var headers = HTTP2HeaderBuffer()
    /// `:method`, `:scheme` and `:authority`, the same for every request: built once, sent NO_COPY.
    private var staticHeaders: HTTP2HeaderBlock?

    init(
        loop: EventLoop, connection: HTTP2ClientConnection.Configuration, maximumConnections: Int, scheme: String,
        counter: ConnectionCounter
    ) {
        self.loop = loop
        self.connectionConfiguration = connection
        self.maximumConnections = maximumConnections
        self.scheme = scheme
        self.counter = counter
    }

    private var waitingCount: Int { waiting.count - waitingHead }

    func dispatch(_ job: Job) {
        guard !shuttingDown else {
            job.finish(.failure(.shutDown))
            return
        }
        if waitingCount == 0, let connection = connections.first(where: { $0.availableStreams > 0 }) {
            submit(job, on: connection)
            return
        }
        enqueue(job, atFront: false)
        growIfNeeded()
    }

    private func enqueue(_ job: Job, atFront: Bool) {
        if job.timer == nil {
            let delay = job.deadline &- min(job.deadline, EventLoop.now())
            job.timer = loop.schedule(after: delay) { [weak self, job] in self?.expire(job) }
        }
        if atFront, waitingHead > 0 {
            waitingHead -= 1
            waiting[waitingHead] = job
        } else if atFront {
            waiting.insert(job, at: 0)
        } else {
            waiting.append(job)
        }
    }

    private func expire(_ job: Job) {
        job.timer = nil
        guard job.completion != nil else { return }
        if let index = waiting[waitingHead...].firstIndex(where: { $0 === job }) {
            waiting.remove(at: index)
        }
        job.finish(.failure(.timedOut(afterSeconds: job.timeout.secondsAsDouble)))
    }

    private func popWaiting() -> Job? {
        while waitingHead < waiting.count {
            let job = waiting[waitingHead]
            waitingHead += 1
            if waitingHead == waiting.count {
                waiting.removeAll(keepingCapacity: true)
                waitingHead = 0
            }
            if job.completion != nil { return job }
        }
        return nil
    }

    private func drainWaiting() {
        while waitingCount > 0, let connection = connections.first(where: { $0.availableStreams > 0 }) {
            guard let job = popWaiting() else { return }
            submit(job, on: connection)
        }
        if waitingCount > 0 { growIfNeeded() }
    }

    private func submit(_ job: Job, on connection: HTTP2ClientConnection) {
        if let timer = job.timer {
            loop.cancel(timer)
            job.timer = nil
        }
        let now = EventLoop.now()
        guard job.deadline > now else {
            job.finish(.failure(.timedOut(afterSeconds: job.timeout.secondsAsDouble)))
            return
        }
        headers.removeAll()
        // The prebuilt block says POST: other methods (channel management) send every header.
        let usesStaticHeaders = job.request.method == "POST"
        for (name, value) in job.request.headers {
            switch name {
            case ":method", ":scheme":
                if !usesStaticHeaders { headers.append(name, name == ":scheme" ? scheme : value) }
                continue
            case ":authority" where !usesStaticHeaders:
                headers.append(name, value)
            case ":authority":
                if staticHeaders == nil {
                    staticHeaders = try? HTTP2HeaderBlock([":method": "POST", ":scheme": scheme, ":authority": value])
                }
                if staticHeaders == nil { headers.append(name, value) }
            default:
                headers.append(name, value, neverIndex: Self.neverIndexed.contains(name))
            }
        }
        if staticHeaders == nil, usesStaticHeaders {
            headers.append(":method", "POST")
            headers.append(":scheme", scheme)
        }
        let remaining = Duration.nanoseconds(Int64(job.deadline &- now))
        connection.submit(
            headers: usesStaticHeaders ? staticHeaders : nil, extraHeaders: headers, body: job.request.body,
            timeout: remaining
        ) {
            [weak self] result in
            self?.complete(job, result) ?? job.finish(.failure(.shutDown))
        }
    }

    private func complete(_ job: Job, _ result: Result<HTTP2Response, HTTP2RequestFailure>) {
        switch result {
        case .success(let response):
            let apnsID = response.headers.value(for: "apns-id")
            var raw = RawResponse(
                status: response.status, apnsID: apnsID, uniqueID: response.headers.value(for: "apns-unique-id"),
                body: response.body)
            if apnsID == nil {
                // Broadcast and channel answers; device answers always carry apns-id, so their
                // hot path skips these lookups.
                raw.requestID = response.headers.value(for: "apns-request-id")
                raw.channelID = response.headers.value(for: "apns-channel-id")
            }
            job.finish(.success(raw))
        case .failure(let failure):
            if !failure.mayHaveBeenProcessed, job.resends < Self.maximumResends, !shuttingDown {
                job.resends += 1
                counter.resent.add(1, ordering: .relaxed)
                enqueue(job, atFront: true)
                drainWaiting()
                return
            }
            if case .timedOut = failure.kind {
                job.finish(.failure(.timedOut(afterSeconds: job.timeout.secondsAsDouble)))
            } else {
                job.finish(.failure(.transport(TransportFailure(
                    mayHaveReachedAPNs: failure.mayHaveBeenProcessed, message: failure.description))))
            }
        }
    }

    // MARK: Connections

    private func growIfNeeded() {
        // One connect at a time; draining connections do not count against the limit.
        guard !shuttingDown, waitingCount > 0, connecting == 0,
            connections.filter({ $0.isReady }).count < maximumConnections
        else { return }
        let now = EventLoop.now()
        if now < nextConnectAt {
            if reconnectTimer == nil {
                reconnectTimer = loop.schedule(after: nextConnectAt - now) { [weak self] in
                    self?.reconnectTimer = nil
                    self?.growIfNeeded()
                }
            }
            return
        }
        connecting += 1
        _ = HTTP2ClientConnection.open(on: loop, configuration: connectionConfiguration) { [weak self] connection, event in
            self?.handle(event, from: connection)
        }
    }

    private func handle(_ event: HTTP2ClientConnection.Event, from connection: HTTP2ClientConnection) {
        switch event {
        case .ready:
            connecting -= 1
            consecutiveFailures = 0
            nextConnectAt = 0
            connections.append(connection)
            counter.value.add(1, ordering: .relaxed)
            counter.opened.add(1, ordering: .relaxed)
            drainWaiting()
        case .streamsAvailable:
            drainWaiting()
        case .draining:
            growIfNeeded()
        case .closed(let error):
            if let index = connections.firstIndex(where: { $0 === connection }) {
                connections.remove(at: index)
                counter.value.subtract(1, ordering: .relaxed)
            } else {
                connecting -= 1
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
        consecutiveFailures += 1
        let backoff = min(UInt64(100_000_000) << UInt64(min(consecutiveFailures - 1, 9)), 30_000_000_000)
        nextConnectAt = EventLoop.now() &+ UInt64(Double(backoff) * Double.random(in: 0.5...1.0))
        while let job = popWaiting() {
            if let timer = job.timer { loop.cancel(timer) }
            job.finish(.failure(.transport(TransportFailure(
                mayHaveReachedAPNs: false, message: "cannot connect to \(connectionConfiguration.host):\(connectionConfiguration.port): \(error)"))))
        }
    }

    func shutdown(_ done: @escaping () -> Void) {
        shuttingDown = true
        onShutdown = done
        if let reconnectTimer { loop.cancel(reconnectTimer) }
        while let job = popWaiting() {
            if let timer = job.timer { loop.cancel(timer) }
            job.finish(.failure(.shutDown))
        }
        for connection in connections { connection.close() }
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
