// Write-behind for the delivery log. The request path only encodes the entry into rows in memory,
// under the log's own lock (one lock per answer, no I/O, no wake-up); the writer thread takes the
// rows at once and writes their bytes to the store in one transaction:
//
//   event loops --append--> DeliveryLog (Mutex: the entries as encoded rows, the tallies and
//                           PendingDeliveries, where in those rows the entries waiting start,
//                           at most `pendingLimit` of them)
//                               | every `flushInterval`, or as soon as `batchSize` entries (or 4 rows) wait
//                               v
//   writer thread (an EventLoop) --take all (copies of the rows)--> store.write(batch, capacity)
//                           in one transaction
//
// When the writer falls behind (the disk is slower than the requests), the queue keeps the newest
// `pendingLimit` entries and overwrites the oldest: requests never wait and memory stays bounded
// (at most the rows filling and the rows being written). Entries overwritten while still among the
// newest `capacity` are counted as dropped (`GET /control/v1/stats`), as are the entries of a batch
// the store failed to write; the in-memory log keeps them all the same.
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
/// Lifecycle: `init` starts the thread; the `DeliveryLog` made with it attaches itself (the log keeps
/// the queue, under its lock); `shutdown()` writes what waits and stops it. Thread-safety: `Sendable`;
/// every method may be called from any thread and never blocks on I/O but `flush` and `shutdown`.
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

    /// The log whose queue the writer empties; weak, as the log owns the writer.
    private struct Source {
        weak var log: DeliveryLog?
    }

    let store: any DeliveryLogStore
    let capacity: Int
    let settings: DeliveryLogWriteBehind
    /// The total the log's queue counts on from (as loaded from the store).
    private let initialTotal: Int
    private let loop: EventLoop
    private let source = Mutex(Source())
    private let counters = Mutex(Stats())

    init(store: any DeliveryLogStore, capacity: Int, total: Int, settings: DeliveryLogWriteBehind) throws(SystemError) {
        self.store = store
        self.capacity = max(1, capacity)
        self.settings = settings
        initialTotal = total
        loop = try EventLoop(name: "herald-log-writer")
        scheduleTick()
    }

    deinit {
        loop.shutdownGracefully()  // a writer released without shutdown() must not leak its thread
    }

    /// The queue for `log` to keep under its lock; the writer takes from `log` from now on.
    func attach(_ log: DeliveryLog, after entries: inout EncodedDeliveryRing) -> PendingDeliveries {
        source.withLock { $0.log = log }
        let limit = min(max(1, settings.pendingLimit), capacity)
        return PendingDeliveries(
            limit: limit, batchSize: settings.batchSize, overwritesAreLosses: limit < capacity, total: initialTotal,
            after: &entries)
    }

    /// A batch is full: write it now rather than at the next interval. Called by the log, outside its lock.
    func startNow() {
        loop.execute { self.writePending() }
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

    /// Runs `work` on the writer thread, after what was handed to it before (other write-behinds
    /// of the emulator's state share the thread; the store serializes their calls anyway).
    func perform(_ work: @escaping @Sendable () -> Void) {
        if !loop.execute(work) { work() }  // shut down: nothing else writes now
    }

    /// Runs `work` on the writer thread and returns once it is done.
    func run(_ work: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let accepted = loop.execute {
                work()
                continuation.resume()
            }
            if !accepted {
                work()
                continuation.resume()
            }
        }
    }

    /// Writes what waits and stops the thread. Later entries are not written.
    func shutdown() async {
        await flush()
        await loop.shutdown()
    }

    var stats: Stats {
        var stats = counters.withLock { $0 }
        if let waiting = source.withLock({ $0.log })?.waitingForWriter {
            stats.pending = waiting.count
            stats.dropped += waiting.lost
        }
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
        guard let log = source.withLock({ $0.log }), let batch = log.takePending() else { return }
        let count = batch.count
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
    }
}
