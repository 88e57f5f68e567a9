// The delivery engine: what turns committed notifications into APNs requests.
//
//   scheduler (one task)                          workers (max(2, concurrency / batch) tasks)
//   ---------------------                         ------------------------------------------
//   startDueNotifications(now)                    claimDeliveries(batch, lease): due rows first
//   notificationsToExpand -> the expansion list      | none due: expandAndClaim(next in the list):
//     (a restart resumes here) -> ring workers       |   one chunk of rows, made already claimed
//   now and then: pendingDeliveryCount (metric)      | neither: wait (wake, idle poll)
//   wait: wake(), idle poll                          v
//                                                 inactiveTokens (claimed rows only: pruned since)
//                                                 DeliveryBatchSender: sendEach per client
//                                                 recordOutcomes (one transaction per batch)
//
// Each worker is a pipeline: while it sends batch k it claims batch k + 1 and records the outcomes
// of batch k - 1, so its APNs connections never wait for the store between batches.
//
// A fresh fan-out costs one transaction per chunk that makes the rows and claims them, one send
// round, one transaction of outcomes: no separate claim, and no inactive-token check (the rows
// were made from active tokens in the same transaction).
//
// Threading: the loops are tasks on the cooperative pool; store calls suspend them (the SQLite
// store works on its own thread); the sends run on the APNs transport's event loops (sendEach), so
// a batch costs a few hops, not one per notification. Memory is the workers' batches (claim batch
// size times three per worker: claimed ahead, sending, recording), never a fan-out: expansion makes
// rows a chunk at a time and the queue is in the store.
//
// Crash safety: a row's apns-id is fixed when it is made. A batch whose outcomes are not recorded
// (a crash, a store failure, a shutdown that abandons sends) stays pending under its lease; when
// the lease runs out any worker claims it again and sends it with the same apns-id. A batch still
// being sent has its leases renewed, so only a dead (or stopped) worker's batches come back.
import APNs
import APNsClient
import Synchronization

/// What a ``DeliveryEngine`` did, for logs and tests.
public enum DeliveryEngineEvent: Sendable {
    /// A scheduling round at `now` (the engine's clock): scheduled notifications started, and
    /// those with recipients still to expand (handed to the workers).
    case scheduled(now: Int, started: [NotificationID], expanding: [NotificationID])
    /// A worker expanded one chunk of the notification (claiming the rows it made, when the
    /// store can).
    case expanded(NotificationID, ExpansionProgress)
    /// A batch's outcomes were recorded; `pruned` tokens changed status.
    case recorded([DeliveryOutcome], pruned: Int)
    /// A store call failed; the engine tries again after its idle poll interval (claimed rows come
    /// back when their leases run out).
    case storeFailed(GatewayStoreError)
}

/// Sends what the store holds: starts scheduled notifications at their time, expands them into
/// delivery rows, claims batches, sends them through the app's `APNsClient` and records outcomes.
///
/// Lifecycle: ``start()`` once; ``wake()`` when a notification is created (so it goes out before
/// the next idle poll); ``shutdown(gracePeriod:)`` stops claiming and lets the batches in flight
/// finish and be recorded, for at most the grace period; past it their outcomes are no longer
/// recorded (shut the ``APNsConnections`` down then, to end the sends): their leases bring them
/// back, after a restart, with the same apns-ids. The engine does not shut the connections down
/// (the channel routes share them).
/// Thread-safety: `Sendable`; call from anywhere.
public final class DeliveryEngine: Sendable {
    public let configuration: DeliveryEngineConfiguration
    public let metrics: GatewayMetrics
    let store: any GatewayStore
    let connections: APNsConnections
    let observer: (@Sendable (DeliveryEngineEvent) -> Void)?
    /// Rings the workers: rows were made, or the engine is stopping.
    private let work = Doorbell()
    /// Rings the scheduler: a notification was created, or the engine is stopping.
    private let schedule = Doorbell()
    private let stopping = Atomic<Bool>(false)
    /// Past the shutdown's grace period: outcomes are no longer recorded.
    private let abandoning = Atomic<Bool>(false)
    private let running = Mutex<Task<Void, Never>?>(nil)
    /// Notifications with recipients still to expand: the scheduler adds them, workers expand them.
    private let toExpand = ExpansionList()

    /// An engine over `store`, sending through `connections`. `observer` hears every event (on the
    /// engine's tasks: keep it short).
    public init(
        store: any GatewayStore, connections: APNsConnections,
        configuration: DeliveryEngineConfiguration = DeliveryEngineConfiguration(),
        metrics: GatewayMetrics = GatewayMetrics(), observer: (@Sendable (DeliveryEngineEvent) -> Void)? = nil
    ) {
        self.store = store
        self.connections = connections
        self.configuration = configuration
        self.metrics = metrics
        self.observer = observer
    }

    /// Starts the scheduler and the workers; a second call does nothing.
    public func start() {
        running.withLock { task in
            guard task == nil, !stopping.load(ordering: .acquiring) else { return }
            let connections = self.connections
            metrics.countConnections { connections.openConnections }
            task = Task { await self.run() }
        }
    }

    /// Looks for new work now instead of at the next idle poll (a notification was created).
    public func wake() {
        schedule.ring()
        work.ring()
    }

    /// Stops claiming and starting notifications; returns when the batches in flight have been
    /// sent and recorded, or when `gracePeriod` (nil: no limit) has passed: from then on the
    /// engine records no outcome, so the sends still in flight stay claimed and are sent again,
    /// with the same apns-ids, once their leases run out. Shut the connections down after it
    /// returns to end those sends.
    public func shutdown(gracePeriod: Duration? = nil) async {
        stopping.store(true, ordering: .releasing)
        schedule.close()
        work.close()
        guard let task = running.withLock({ $0 }) else { return }
        guard let gracePeriod else { return await task.value }
        let waiter = ShutdownWaiter()
        await withCheckedContinuation { continuation in
            waiter.continuation.withLock { $0 = continuation }
            Task {
                await task.value
                waiter.take()?.resume()
            }
            Task {
                try? await Task.sleep(for: gracePeriod)
                guard let waiting = waiter.take() else { return }
                self.abandoning.store(true, ordering: .releasing)
                waiting.resume()
            }
        }
    }

    /// The shutdown's continuation, resumed once: by the end of the work or of the grace period.
    private final class ShutdownWaiter: Sendable {
        let continuation = Mutex<CheckedContinuation<Void, Never>?>(nil)
        func take() -> CheckedContinuation<Void, Never>? { continuation.withLock { $0.take() } }
    }

    private var isStopping: Bool { stopping.load(ordering: .acquiring) }

    private func run() async {
        let workers = configuration.workers
        await withDiscardingTaskGroup { group in
            group.addTask { await self.scheduleLoop() }
            for _ in 0..<workers.count {
                group.addTask { await self.workLoop(concurrency: workers.concurrency) }
            }
        }
    }

    // MARK: - Scheduling

    private func scheduleLoop() async {
        let clock = ContinuousClock()
        var depthCountedAt: ContinuousClock.Instant?
        while !isStopping {
            var more = false
            do {
                let now = configuration.clock()
                let started = try await store.startDueNotifications(now: now, limit: 1_000)
                more = started.count == 1_000
                let expanding = try await store.notificationsToExpand(limit: 100)
                toExpand.add(expanding)
                if !expanding.isEmpty { work.ring() }
                if depthCountedAt.map({ clock.now - $0 >= configuration.queueDepthInterval }) ?? true {
                    metrics.setQueueDepth(try await store.pendingDeliveryCount())
                    depthCountedAt = clock.now
                }
                observer?(.scheduled(now: now, started: started, expanding: expanding))
            } catch {
                observer?(.storeFailed(error))
                more = false
            }
            if more {
                await Task.yield()
            } else {
                await schedule.wait(timeout: configuration.idlePollInterval)
            }
        }
    }

    // MARK: - Expanding, claiming, sending, recording

    /// A claimed batch, ready to send: the ids of its deliveries not to send (tokens pruned since
    /// their rows were made) are known.
    private struct Batch: Sendable {
        var claim: DeliveryClaim
        var inactive: Set<Int>
    }

    /// One worker: a pipeline of three stages over the store's one connection and the APNs
    /// connections. While batch k is being sent, batch k + 1 is claimed (or expanded) and the
    /// outcomes of batch k - 1 are recorded, so the connections do not wait on the store between
    /// batches. At most three batches per worker are in memory (one claimed ahead, one sending,
    /// one being recorded). A batch claimed ahead is sent even when the engine starts stopping (it
    /// is claimed; `shutdown` promises the batches in flight).
    private func workLoop(concurrency: Int) async {
        let sender = DeliveryBatchSender(connections: connections, metrics: metrics, concurrency: concurrency)
        var ahead: Result<Batch?, GatewayStoreError>?
        var recording: Task<Void, Never>?
        while !abandoning.load(ordering: .acquiring) {
            let next: Result<Batch?, GatewayStoreError>
            if let claimed = ahead {
                next = claimed
            } else {
                next = isStopping ? .success(nil) : await claimBatch()
            }
            ahead = nil
            let batch: Batch
            switch next {
            case .failure(let error):
                observer?(.storeFailed(error))
                await work.wait(timeout: configuration.idlePollInterval)
                continue
            case .success(nil):
                await recording?.value
                recording = nil
                if isStopping { return }
                await work.wait(timeout: configuration.idlePollInterval)
                continue
            case .success(let claimed?):
                batch = claimed
            }
            async let following: Result<Batch?, GatewayStoreError> = isStopping ? .success(nil) : claimBatch()
            let renewing = Task { await self.keepLeases(of: batch.claim.deliveries) }
            var outcomes = await sender.send(batch.claim, inactive: batch.inactive)
            renewing.cancel()
            if let renewal = await renewing.value {
                for index in outcomes.indices where renewal.ids.contains(outcomes[index].deliveryID) {
                    outcomes[index].delivery?.claimedUntil = renewal.until
                }
            }
            // One recording at a time per worker: outcomes are recorded in order and memory stays bounded.
            await recording?.value
            recording = Task { await self.record(outcomes) }
            ahead = await following
        }
        await recording?.value
    }

    /// Renews the leases of a batch being sent until cancelled (when its sends have ended), so a
    /// slow batch is not claimed again by another worker or process: first when two thirds of its
    /// lease are left (a batch claimed ahead has waited for the one before it), then every third
    /// of a lease. Returns the deliveries renewed last and their lease; nil when none was renewed.
    private func keepLeases(of deliveries: [Delivery]) async -> (ids: Set<Int>, until: Int)? {
        let lease = configuration.leaseMilliseconds
        var held = deliveries
        var renewal: (ids: Set<Int>, until: Int)?
        while !held.isEmpty {
            let expires = held.compactMap(\.claimedUntil).min() ?? configuration.clock()
            let wait = max(0, expires - configuration.clock() - lease * 2 / 3)
            do {
                try await Task.sleep(for: .milliseconds(wait))
            } catch {
                return renewal  // cancelled: the sends have ended
            }
            let until = configuration.clock() + lease
            do {
                let ids = try await store.renewClaims(held, claimer: configuration.claimer, until: until)
                renewal = (ids, until)
                held = held.filter { ids.contains($0.id) }.map { delivery in
                    var renewed = delivery
                    renewed.claimedUntil = until
                    return renewed
                }
            } catch {
                observer?(.storeFailed(error))
                if Task.isCancelled { return renewal }
            }
        }
        return renewal
    }

    /// The next batch, as a result (a stage of the pipeline runs it beside a send).
    private func claimBatch() async -> Result<Batch?, GatewayStoreError> {
        do throws(GatewayStoreError) {
            guard let (claim, fresh) = try await nextBatch() else { return .success(nil) }
            return .success(Batch(claim: claim, inactive: fresh ? [] : try await inactiveDeliveries(claim)))
        } catch {
            return .failure(error)
        }
    }

    /// Records a sent batch's outcomes; past the shutdown's grace period nothing is recorded (the
    /// leases bring the deliveries back).
    private func record(_ outcomes: [DeliveryOutcome]) async {
        guard !abandoning.load(ordering: .acquiring) else { return }
        do throws(GatewayStoreError) {
            let pruned = try await store.recordOutcomes(
                outcomes, backoff: configuration.backoff, now: configuration.clock())
            metrics.recordPruned(pruned)
            observer?(.recorded(outcomes, pruned: pruned))
        } catch {
            // The deliveries stay claimed; their leases bring them back, with the same apns-ids.
            observer?(.storeFailed(error))
        }
    }

    /// The worker's next batch: due rows first (retries, leases run out, rows made unclaimed),
    /// else the next chunk of a notification being expanded, made already claimed (`fresh`: its
    /// recipients were active when the rows were made). Nil when there is neither.
    private func nextBatch() async throws(GatewayStoreError) -> (claim: DeliveryClaim, fresh: Bool)? {
        while !isStopping {
            let claim = try await store.claimDeliveries(
                limit: configuration.claimBatchSize, claimer: configuration.claimer,
                leaseMilliseconds: configuration.leaseMilliseconds, now: configuration.clock())
            if !claim.deliveries.isEmpty { return (claim, false) }
            guard let id = toExpand.next() else { return nil }
            // One chunk is one batch: the rows in flight stay bounded by the workers' batches.
            let expansion = try await store.expandAndClaim(
                id: id, chunkSize: configuration.claimBatchSize, claimer: configuration.claimer,
                leaseMilliseconds: configuration.leaseMilliseconds, now: configuration.clock())
            if expansion.progress.finished { toExpand.remove(id) }
            observer?(.expanded(id, expansion.progress))
            if !expansion.claim.deliveries.isEmpty { return (expansion.claim, true) }
            // Rows made unclaimed (a store without the fused path) are due: the next claim takes them.
        }
        return nil
    }

    /// The ids of the claim's deliveries whose tokens were pruned after their rows were made
    /// (expansion takes active tokens only, but a 410 may have come since).
    private func inactiveDeliveries(_ claim: DeliveryClaim) async throws(GatewayStoreError) -> Set<Int> {
        var groups: [GroupKey: [Delivery]] = [:]
        for delivery in claim.deliveries where delivery.kind != .channel {
            guard let bundleID = claim.notifications[delivery.notificationID]?.request.bundleID else { continue }
            groups[GroupKey(bundleID: bundleID, kind: delivery.kind), default: []].append(delivery)
        }
        var inactive = Set<Int>()
        for (key, deliveries) in groups {
            let tokens = try await store.inactiveTokens(
                bundleID: key.bundleID, kind: key.kind, tokens: deliveries.map(\.recipient))
            guard !tokens.isEmpty else { continue }
            for delivery in deliveries where tokens.contains(delivery.recipient) { inactive.insert(delivery.id) }
        }
        return inactive
    }

    private struct GroupKey: Hashable {
        var bundleID: String
        var kind: Delivery.Kind
    }
}
