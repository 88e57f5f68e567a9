// The bulk path of `APNsClient.sendEach`: one loop-confined object that takes notifications from
// a source, submits them straight into its loop's pool (`LoopPool`, completion `.handler`), and
// hears their outcomes back on the same loop. No task, continuation or thread hop per
// notification; requests submitted in one wake-up leave in one write (the pool's connections
// flush before the loop waits).
//
//   start -> refill: while inFlight < limit (and fewer than `waitingAhead` requests wait in the pool
//             for a stream), take the next notification -> begin
//   begin -> entry (the notification, the token sent, started, its position in the order `next`
//             gave it) -> submit its APNsRequest: into the pool, tag = entry
//   requestFinished(tag) -> decode -> retry? (re-sign once on ExpiredProviderToken; the retry
//             policy's delay on a loop timer) -> resend: a request built again, the same apns-id
//                        -> else finish: metrics, prune callback, onResult, free entry, refill
//   pool shutdown begins -> retries waiting on a timer end now with .shutDown (their timers are
//             cancelled); what the source still holds fails at once in the pool
//   source exhausted and nothing in flight -> resume the one waiting continuation
//
// Every notification taken from the source ends in `finish` exactly once, whatever happens to the
// pool or the loop (the deinit reports entries a stopped loop dropped). Memory is bounded by
// `limit` entries whatever the number of notifications. An entry holds the notification (moved in,
// handed back to `onResult`, never copied) and the token it was last sent with; the request built
// from it lives in the pool's slot only (a resend builds it again, with the same apns-id).

import APNs
import HTTP2

final class BulkSender: LoopRequestHandler, @unchecked Sendable {
    // SAFETY: created off the loop, then used only on `pool.loop` (from `start`, handed to
    // `loop.execute`, on). Every entry point checks it with `assert(pool.loop.inEventLoop)` in debug.
    // The deinit is the exception: it runs when the last reference goes, which is on the loop
    // unless the loop has stopped (then nothing else touches the sender any more).
    // The `@exclusivity(unchecked)` members are touched for every notification (a dynamic check
    // is a runtime call per access); none is accessed across a call that could re-enter the
    // sender: values are read out, or the access ends, before `onResult`, the pool or `next` is
    // called.

    typealias Outcome = Result<APNsResponse, APNsClientError>

    private struct Entry {
        /// The notification being sent, for resends, `onResult` and the prune callback (its
        /// apns-id set before the first send); nil: a free slot.
        var notification: Notification?
        /// The `authorization` it was last sent with (nil with a certificate).
        var authorization: String?
        var retries = RetryState()
        /// The timer of a resend waiting for the retry policy's delay.
        var retryTimer: TimerID?
    }

    private let client: APNsClient
    private let pool: LoopPool
    private let limit: Int
    private let next: () -> Notification?
    /// Takes the notification's position and the notification: the sender is done with it (moved out,
    /// no copy).
    private let onResult: (Int, consuming Notification, Outcome) -> Void
    @exclusivity(unchecked) private var entries: [Entry] = []
    @exclusivity(unchecked) private var free: [Int] = []
    /// Per entry, apart from it (plain values): reading `entries[i].started` or checking
    /// `entries[i].notification` copied the whole entry, with a retain per string it holds.
    @exclusivity(unchecked) private var inUse: [Bool] = []
    /// When each entry began (`EventLoop.now()`, nanoseconds): a `Duration` converted to
    /// microseconds goes through 128-bit arithmetic for every notification.
    @exclusivity(unchecked) private var started: [UInt64] = []
    /// The apns-id each entry is sent with, for a response without one: reading it out of the
    /// entry's notification copied the whole entry.
    @exclusivity(unchecked) private var apnsIDs: [String] = []
    /// Each entry's position: its place in the order `next` handed the notifications out.
    @exclusivity(unchecked) private var positions: [Int] = []
    /// Notifications taken from `next` so far: the position of the next one.
    @exclusivity(unchecked) private var taken = 0
    @exclusivity(unchecked) private var inFlight = 0
    @exclusivity(unchecked) private var exhausted = false
    @exclusivity(unchecked) private var refilling = false
    private var shutdownObserver: Int?
    /// Starts, writes and successes not yet added to the client's metrics: added every
    /// `tallyBatch` notifications and before `done` resumes (failures are recorded at once).
    @exclusivity(unchecked) private var tally = MetricsTally()
    private static let tallyBatch = 64
    /// The provider token's `authorization` for new requests, asked of the cache again every
    /// `authorizationReuse` notifications (asking reads the clock and takes a lock) and on every
    /// resend. A token stays valid for an hour; the cache replaces it well before.
    @exclusivity(unchecked) private var authorization: (value: String?, uses: Int) = (nil, 0)
    private static let authorizationReuse = 64
    /// Requests waiting in the pool's queue for a stream beyond which `refill` holds back until one
    /// of its own ends: enough to fill the streams a burst of responses frees.
    static let waitingAhead = 32
    private var done: CheckedContinuation<Void, Never>?

    init(
        client: APNsClient, pool: LoopPool, limit: Int, next: @escaping () -> Notification?,
        onResult: @escaping (Int, consuming Notification, Outcome) -> Void
    ) {
        self.client = client
        self.pool = pool
        self.limit = max(1, limit)
        self.next = next
        self.onResult = onResult
    }

    deinit {
        client.recorder.add(&tally)
        // Only when the loop stopped with a retry timer pending (its loop group was shut down
        // before the transport): the timers and their references went away. Their notifications
        // still end once, and the caller does not wait forever.
        for index in entries.indices {
            guard let notification = entries[index].notification else { continue }
            client.recorder.finished(.failure(.shutDown), microseconds: 0)
            onResult(positions[index], notification, .failure(.shutDown))
        }
        if let shutdownObserver { pool.stopObservingShutdown(shutdownObserver) }
        done?.resume()
    }

    /// Starts sending on the pool's loop; `done` is resumed once every notification has ended.
    func start(_ done: CheckedContinuation<Void, Never>) {
        assert(pool.loop.inEventLoop)
        self.done = done
        // Not `weak`: a weakly referenced object takes the slow path on every retain, and the
        // pool retains the sender per request. The deinit unregisters, so the pool never calls
        // a sender that is gone.
        shutdownObserver = pool.observeShutdown { [unowned(unsafe) self] in self.poolShuttingDown() }
        refill()
    }

    private func refill() {
        guard !refilling else { return }  // an outcome inside `begin`: the outer loop goes on
        refilling = true
        var now = EventLoop.now()  // one clock read for the notifications begun together
        var begun = 0
        // While requests wait in the pool for a stream, more would only queue behind them: a
        // queued request costs the pool a ticket, a queue push and a connection scan more than one
        // submitted at once. Our own requests in flight refill when they end (never stop at zero).
        while inFlight < limit, !exhausted, inFlight == 0 || pool.waitingCount < Self.waitingAhead {
            guard let notification = next() else {
                exhausted = true
                break
            }
            begun += 1
            if begun & 15 == 0 { now = EventLoop.now() }
            let position = taken
            taken += 1
            begin(notification, position: position, at: now)
        }
        refilling = false
        if exhausted, inFlight == 0, let done {
            client.recorder.add(&tally)
            self.done = nil
            if let shutdownObserver { pool.stopObservingShutdown(shutdownObserver) }
            shutdownObserver = nil
            done.resume()
        }
    }

    private func begin(_ notification: consuming Notification, position: Int, at started: UInt64) {
        tally.started += 1
        var failure: APNsClientError?
        var authorization: String?
        if notification.payload.count > notification.payloadLimit {
            failure = .invalidNotification(
                "the payload is \(notification.payload.count) bytes; \(notification.pushType) pushes allow at most \(notification.payloadLimit)"
            )
        } else if self.authorization.uses > 0 {
            self.authorization.uses -= 1
            authorization = self.authorization.value
        } else {
            switch currentAuthorization() {
            case .success(let current):
                authorization = current
                self.authorization = (current, Self.authorizationReuse)
            case .failure(let error):
                failure = error
            }
        }
        if let failure {
            if notification.apnsID == nil { notification.apnsID = APNsID.random() }
            client.recorder.finished(.failure(failure), microseconds: 0)
            onResult(position, notification, .failure(failure))
            return
        }
        // An apns-id is given here when the notification has none, so the notification handed back
        // carries the id sent, and a resend (built again from it) sends the same one.
        if notification.apnsID == nil { notification.apnsID = APNsID.random() }
        let request = APNsRequest(notification: notification, authority: client.authority, authorization: authorization)
        let index: Int
        // Entries are made in place: assigning a local entry copied it and destroyed the original;
        // the notification is moved in (not copied).
        if let reused = free.popLast() {
            index = reused
            apnsIDs[index] = request.apnsID
            entries[index] = Entry(notification: consume notification, authorization: authorization)
            inUse[index] = true
            self.started[index] = started
            positions[index] = position
        } else {
            index = entries.count
            apnsIDs.append(request.apnsID)
            entries.append(Entry(notification: consume notification, authorization: authorization))
            inUse.append(true)
            self.started.append(started)
            positions.append(position)
        }
        inFlight += 1
        submit(request, index)
    }

    /// `bearer <JWT>` with token auth (the cache's current token), nil with a certificate.
    private func currentAuthorization() -> Result<String?, APNsClientError> {
        client.credentials.currentToken().map { $0?.authorization }
    }

    /// Sends an entry's notification again (the same apns-id), with the current provider token.
    private func resend(_ index: Int) {
        entries[index].retryTimer = nil
        guard let notification = entries[index].notification else { return }
        switch currentAuthorization() {
        case .failure(let error):
            finish(index, .failure(error))
        case .success(let authorization):
            self.authorization = (authorization, Self.authorizationReuse)
            entries[index].authorization = authorization
            let request = APNsRequest(
                notification: notification, authority: client.authority, authorization: authorization)
            submit(request, index)
        }
    }

    private func submit(_ request: APNsRequest, _ index: Int) {
        tally.sent += 1
        pool.perform(request, timeout: client.requestTimeout, completion: .handler(self, tag: index))
    }

    func requestFinished(_ tag: Int, _ raw: Result<RawResponse, APNsClientError>) {
        assert(pool.loop.inEventLoop)
        // Fields are read in place: copying an entry costs a retain per string it holds.
        guard inUse[tag] else { return }
        // No closure here: one reading `entries[tag]` copied the whole entry on every response.
        let result: Outcome
        switch raw {
        case .success(let response):
            // Without an apns-id in the answer, the one sent: lowercase already (APNsID's form).
            let answered = response.apnsID
            result = ResponseDecoder.decode(
                status: response.status, apnsID: answered ?? apnsIDs[tag], uniqueID: response.uniqueID,
                body: response.body, apnsIDIsLowercase: answered == nil)
        case .failure(let error):
            result = .failure(error)
        }
        guard case .failure(let error) = result else {
            finish(tag, result)
            return
        }
        let sent = entries[tag].authorization
        let step = entries[tag].retries.step(after: error, policy: client.retryPolicy) {
            // The token sent is the current one unless another request re-signed meanwhile.
            guard let sent, case .token(let cache) = client.credentials, let current = try? cache.token() else {
                return false
            }
            return current.authorization != sent || client.credentials.resigns(after: current)
        }
        switch step {
        case .resendNow:
            client.recorder.retried()
            resend(tag)
            return
        case .resendAfter(let delay) where shutdownObserver != nil:
            client.recorder.retried()
            entries[tag].retryTimer = pool.loop.schedule(after: delay.clampedNanoseconds) { [self] in resend(tag) }
            return
        case .resendAfter, .stop:
            break
        }
        if case .rejected(let rejection) = error, rejection.reason.prunesToken,
            let onPrunableToken = client.onPrunableToken,
            let notification = entries[tag].notification
        {
            onPrunableToken(
                APNsClient.PrunableToken(
                    token: notification.token, topic: notification.topic, reason: rejection.reason,
                    invalidSinceMilliseconds: rejection.timestampMilliseconds))
        }
        finish(tag, result)
    }

    /// The pool is shutting down: resends waiting for their delay end now, as shut down.
    private func poolShuttingDown() {
        assert(pool.loop.inEventLoop)
        shutdownObserver = nil  // also: no new resend is scheduled from here on
        for index in entries.indices {
            guard let timer = entries[index].retryTimer else { continue }
            _ = pool.loop.cancel(timer)
            entries[index].retryTimer = nil
            finish(index, .failure(.shutDown))
        }
    }

    /// The one place a notification ends.
    private func finish(_ index: Int, _ result: Outcome) {
        guard inUse[index], let notification = entries[index].notification.take() else { return }
        inUse[index] = false
        entries[index].authorization = nil
        entries[index].retryTimer = nil
        free.append(index)
        inFlight -= 1
        let now = EventLoop.now()
        let microseconds = now > started[index] ? (now - started[index]) / 1000 : 0
        if case .success = result {
            tally.succeeded.append(microseconds)
        } else {
            client.recorder.finished(result, microseconds: microseconds)
        }
        if tally.started >= Self.tallyBatch || tally.succeeded.count >= Self.tallyBatch { client.recorder.add(&tally) }
        onResult(positions[index], consume notification, result)
        refill()
    }
}
