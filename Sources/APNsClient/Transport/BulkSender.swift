// The bulk path of `APNsClient.sendEach`: one loop-confined object that takes notifications from
// a source, submits them straight into its loop's pool (`LoopPool`, completion `.handler`), and
// hears their outcomes back on the same loop. No task, continuation or thread hop per
// notification; requests submitted in one wake-up leave in one write (the pool's connections
// flush before the loop waits).
//
//   start -> refill: while inFlight < limit, take the next notification -> begin
//   begin -> entry (notification, attempt, started) -> send: request into the pool, tag = entry
//   requestFinished(tag) -> decode -> retry? (re-sign once on ExpiredProviderToken; the retry
//             policy's delay on a loop timer) -> send again with the same apns-id
//                        -> else finish: metrics, prune callback, onResult, free entry, refill
//   source exhausted and nothing in flight -> resume the one waiting continuation
//
// Memory is bounded by `limit` entries whatever the number of notifications.

import APNs
import HTTP2

final class BulkSender: LoopRequestHandler, @unchecked Sendable {
    // SAFETY: created off the loop, then used only on `pool.loop` (from `start`, handed to
    // `loop.execute`, on). Every entry point checks it with `preconditionInEventLoop` in debug.

    typealias Outcome = Result<APNsResponse, APNsClientError>

    private struct Entry {
        var notification: Notification
        var retries = RetryState()
        /// The `authorization` the last attempt carried (the same string object while the token
        /// lasts: holding it costs one reference, not a token's four strings).
        var authorization: String?
        let started: ContinuousClock.Instant
    }

    private let client: APNsClient
    private let pool: LoopPool
    private let limit: Int
    private let next: () -> Notification?
    private let onResult: (Notification, Outcome) -> Void
    private var entries: [Entry?] = []
    private var free: [Int] = []
    private var inFlight = 0
    private var exhausted = false
    private var refilling = false
    private var done: CheckedContinuation<Void, Never>?

    init(
        client: APNsClient, pool: LoopPool, limit: Int, next: @escaping () -> Notification?,
        onResult: @escaping (Notification, Outcome) -> Void
    ) {
        self.client = client
        self.pool = pool
        self.limit = max(1, limit)
        self.next = next
        self.onResult = onResult
    }

    deinit {
        // Only when the loop stopped with a retry timer pending (the transport was shut down
        // during the send): the timer and its reference went away. Do not leave the caller waiting.
        done?.resume()
    }

    /// Starts sending on the pool's loop; `done` is resumed once every notification has ended.
    func start(_ done: CheckedContinuation<Void, Never>) {
        assert(pool.loop.inEventLoop)
        self.done = done
        refill()
    }

    private func refill() {
        guard !refilling else { return }  // an outcome inside `begin`: the outer loop goes on
        refilling = true
        while inFlight < limit, !exhausted {
            guard let notification = next() else {
                exhausted = true
                break
            }
            begin(notification)
        }
        refilling = false
        if exhausted, inFlight == 0, let done {
            self.done = nil
            done.resume()
        }
    }

    private func begin(_ original: Notification) {
        client.recorder.started()
        let index: Int
        if let reused = free.popLast() {
            index = reused
        } else {
            index = entries.count
            entries.append(nil)
        }
        inFlight += 1
        var notification = original
        if notification.apnsID == nil { notification.apnsID = APNsID.random() }
        entries[index] = Entry(notification: notification, started: .now)
        if original.payload.count > original.payloadLimit {
            finish(
                index,
                .failure(
                    .invalidNotification(
                        "the payload is \(original.payload.count) bytes; \(original.pushType) pushes allow at most \(original.payloadLimit)"
                    )))
            return
        }
        send(index)
    }

    private func send(_ index: Int) {
        guard entries[index] != nil else { return }
        var token: ProviderToken?
        if case .token(let cache) = client.credentials {
            do {
                token = try cache.token()
            } catch {
                finish(index, .failure(.providerToken(error)))
                return
            }
        }
        entries[index]?.authorization = token?.authorization
        guard let notification = entries[index]?.notification else { return }
        let request = APNsRequest(
            notification: notification, authority: client.authority, authorization: token?.authorization)
        client.recorder.wroteRequest()
        pool.perform(request, timeout: client.requestTimeout, completion: .handler(self, tag: index))
    }

    func requestFinished(_ tag: Int, _ raw: Result<RawResponse, APNsClientError>) {
        assert(pool.loop.inEventLoop)
        // Fields are read in place: copying an entry costs a retain per string it holds.
        guard entries[tag] != nil else { return }
        let result = raw.flatMap { raw in
            ResponseDecoder.decode(
                status: raw.status, apnsID: raw.apnsID ?? entries[tag]?.notification.apnsID?.value,
                uniqueID: raw.uniqueID,
                body: raw.body)
        }
        guard case .failure(let error) = result else {
            finish(tag, result)
            return
        }
        let sent = entries[tag]?.authorization
        let step = entries[tag]?.retries.step(after: error, policy: client.retryPolicy) {
            // The token sent is the current one unless another request re-signed meanwhile.
            guard let sent, case .token(let cache) = client.credentials, let current = try? cache.token() else { return false }
            return current.authorization != sent || client.credentials.resigns(after: current)
        }
        switch step {
        case .resendNow:
            client.recorder.retried()
            send(tag)
            return
        case .resendAfter(let delay):
            client.recorder.retried()
            _ = pool.loop.schedule(after: delay.clampedNanoseconds) { [self] in send(tag) }
            return
        case .stop, nil:
            break
        }
        if case .rejected(let rejection) = error, rejection.reason.prunesToken,
            let onPrunableToken = client.onPrunableToken,
            let notification = entries[tag]?.notification
        {
            onPrunableToken(
                APNsClient.PrunableToken(
                    token: notification.token, topic: notification.topic, reason: rejection.reason,
                    invalidSinceMilliseconds: rejection.timestampMilliseconds))
        }
        finish(tag, result)
    }

    /// The one place a notification ends.
    private func finish(_ index: Int, _ result: Outcome) {
        guard let entry = entries[index].take() else { return }
        free.append(index)
        inFlight -= 1
        let elapsed = ContinuousClock.now - entry.started
        client.recorder.finished(result, microseconds: elapsed.clampedNanoseconds / 1000)
        onResult(entry.notification, result)
        refill()
    }
}
