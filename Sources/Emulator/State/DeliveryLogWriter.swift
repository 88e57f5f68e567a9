// Write-behind for the delivery log. The request path only appends to a bounded ring in memory
// (one short lock, no I/O, no wake-up); the writer thread takes the whole ring at once and writes it
// to the store in one transaction:
//
//   event loops --enqueue--> PendingDeliveries (Mutex, at most `pendingLimit`)
//                               | every `flushInterval`, or as soon as `batchSize` wait
//                               v
//   writer thread (an EventLoop) --take all--> store.write(batch, capacity) in one transaction
//
// When the writer falls behind (the disk is slower than the requests), the ring keeps the newest
// `pendingLimit` entries and overwrites the oldest: requests never wait and memory stays bounded
// (at most two rings: the one filling and the one being written). Entries overwritten while still
// among the newest `capacity` are counted as dropped (`GET /control/v1/stats`), as are the entries of
// a batch the store failed to write; the in-memory log keeps them all the same.
import HTTP2
import Synchronization

/// How the delivery log is written behind to the store.
public struct DeliveryLogWriteBehind: Sendable, Equatable {
    /// How often waiting entries are written at the latest.
    public var flushInterval: Duration = .milliseconds(100)
    /// Entries that make the writer start at once instead of at the next interval.
    public var batchSize = 8192
    /// Most entries waiting at once; beyond it the oldest waiting entries are overwritten.
    public var pendingLimit = 65_536

    public init() {}
}

/// Writes the delivery log's new entries to a `DeliveryLogStore` on its own thread.
///
/// Lifecycle: `init` starts the thread; `shutdown()` writes what waits and stops it. Thread-safety:
/// `Sendable`; `enqueue` and `clear` may be called from any thread and never block on I/O.
final class DeliveryLogWriter: Sendable {
    /// What the writer has done since it started.
    struct Stats: Sendable, Equatable {
        var pending = 0
        var written = 0
        var dropped = 0
        var batches = 0
        var failures = 0
        var lastError: String?
    }

    let store: any DeliveryLogStore
    let capacity: Int
    let settings: DeliveryLogWriteBehind
    private let loop: EventLoop
    /// What waits; whether the writer was asked to start; the last batch's emptied array, whose
    /// capacity the next ring reuses (the loops then append without growing an array).
    private let pending: Mutex<(buffer: PendingDeliveries, flushRequested: Bool, spare: [DeliveryRecord])>
    private let counters = Mutex(Stats())
    /// True when an overwritten waiting entry is among the newest `capacity` (a real loss on disk).
    private let overwritesAreLosses: Bool

    init(store: any DeliveryLogStore, capacity: Int, total: Int, settings: DeliveryLogWriteBehind) throws(SystemError) {
        self.store = store
        self.capacity = max(1, capacity)
        self.settings = settings
        let limit = min(max(1, settings.pendingLimit), self.capacity)
        overwritesAreLosses = limit < self.capacity
        pending = Mutex((PendingDeliveries(limit: limit, total: total), false, []))
        loop = try EventLoop(name: "herald-log-writer")
        scheduleTick()
    }

    deinit {
        loop.shutdownGracefully()  // a writer released without shutdown() must not leak its thread
    }

    /// Queues `delivery` for the store. Never blocks on I/O; see the design note for what a full queue does.
    func enqueue(_ delivery: DeliveryRecord) {
        let (overwrote, startNow) = pending.withLock { state in
            let overwrote = state.buffer.append(delivery)
            guard state.buffer.count >= settings.batchSize, !state.flushRequested else { return (overwrote, false) }
            state.flushRequested = true
            return (overwrote, true)
        }
        if overwrote, overwritesAreLosses { counters.withLock { $0.dropped += 1 } }
        if startNow { loop.execute { self.writePending() } }
    }

    /// Forgets the waiting entries and makes the next write clear the store's log first.
    func clear() {
        pending.withLock { $0.buffer.clear() }
    }

    /// Writes what waits now; returns once it is in the store (or failed, counted in `stats`).
    func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let accepted = loop.execute {
                self.writePending()
                continuation.resume()
            }
            if !accepted { continuation.resume() }  // shut down: everything was written then
        }
    }

    /// Writes what waits and stops the thread. Later entries are not written.
    func shutdown() async {
        await flush()
        await loop.shutdown()
    }

    var stats: Stats {
        var stats = counters.withLock { $0 }
        stats.pending = pending.withLock { $0.buffer.count }
        return stats
    }

    // MARK: - On the writer thread

    private func scheduleTick() {
        let interval = UInt64(settings.flushInterval.clampedNanoseconds)
        _ = loop.scheduleFromAnyThread(after: interval) { [weak self] in self?.tick() }
    }

    private func tick() {
        writePending()
        let interval = UInt64(settings.flushInterval.clampedNanoseconds)
        _ = loop.schedule(after: interval) { [weak self] in self?.tick() }
    }

    private func writePending() {
        let taken = pending.withLock { state -> PendingDeliveries? in
            state.flushRequested = false
            guard !state.buffer.isEmpty else { return nil }
            let taken = state.buffer
            state.buffer = PendingDeliveries(limit: taken.limit, total: taken.total, reusing: state.spare)
            state.spare = []
            return taken
        }
        guard let taken else { return }
        var batch = taken.batch()
        let count = batch.records.count
        do {
            try store.write(batch, capacity: capacity)
            counters.withLock {
                $0.written += count
                $0.batches += 1
            }
        } catch {
            counters.withLock {
                $0.dropped += count
                $0.failures += 1
                $0.lastError = "\(error)"
            }
        }
        // Release the entries here, off the loops, and keep the array for the next ring.
        var spare = batch.records
        batch.records = []
        spare.removeAll(keepingCapacity: true)
        pending.withLock { $0.spare = spare }
    }
}
