import APNs
import HTTP2
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What a client has done so far: a snapshot, safe to read while sends go on.
public struct MetricsSnapshot: Sendable, Equatable {
    /// Requests written to a connection (resends included).
    public var sent: Int = 0
    public var succeeded: Int = 0
    /// Notifications that ended in an error (after retries).
    public var failed: Int = 0
    /// Failures by APNs reason, or by `transport`, `timeout`, `invalid` for the others.
    public var failedByReason: [String: Int] = [:]
    /// Resends after a retryable failure.
    public var retried: Int = 0
    /// Notifications accepted by `send` and not yet finished.
    public var inFlight: Int = 0
    /// Open connections.
    public var connections: Int = 0
    /// Time from `send` to its result, successes and failures alike.
    public var latency = LatencyHistogram()

    public init() {}
}

/// Collects metrics from any thread, in shards chosen by the recording thread: each event loop
/// (or other thread) mostly updates its own shard, so sends on different loops do not contend for
/// one lock or bounce one cache line. Counters that change on every send are atomics; the
/// histogram and the failure table change under the shard's lock, once per notification. A
/// snapshot adds the shards up (each shard is read consistently; the sum is a moment's picture).
final class MetricsRecorder: Sendable {
    final class Shard: Sendable {
        let state = AnnotatedMutex(MetricsSnapshot())
        let started = Atomic<Int>(0)
        let finished = Atomic<Int>(0)
        let sent = Atomic<Int>(0)
        let retries = Atomic<Int>(0)
    }

    static let shardCount = 16
    private let shards: [Shard] = (0..<MetricsRecorder.shardCount).map { _ in Shard() }

    /// This thread's shard (threads may share one; that costs contention, never correctness). A
    /// send looks it up once and counts all its events there, wherever it resumes: the totals are
    /// sums over every shard.
    var shard: Shard {
        let thread = UInt64(pthread_self())
        return shards[Int(truncatingIfNeeded: ((thread >> 12) &* 0x9E37_79B9_7F4A_7C15) >> 60) % Self.shardCount]
    }

    var snapshot: MetricsSnapshot {
        var total = MetricsSnapshot()
        var inFlight = 0
        for shard in shards {
            let part = shard.state.withLock { $0 }
            total.succeeded += part.succeeded
            total.failed += part.failed
            total.failedByReason.merge(part.failedByReason, uniquingKeysWith: +)
            total.latency.merge(part.latency)
            inFlight += shard.started.load(ordering: .relaxed) - shard.finished.load(ordering: .relaxed)
            total.sent += shard.sent.load(ordering: .relaxed)
            total.retried += shard.retries.load(ordering: .relaxed)
        }
        total.inFlight = max(0, inFlight)
        return total
    }

    func retried() {
        shard.retries.add(1, ordering: .relaxed)
    }

    func finished(_ result: Result<APNsResponse, APNsClientError>, microseconds: UInt64) {
        finished(result, microseconds: microseconds, in: shard)
    }

    func finished(_ result: Result<APNsResponse, APNsClientError>, microseconds: UInt64, in shard: Shard) {
        shard.state.withLock { metrics in
            metrics.latency.record(microseconds: microseconds)
            switch result {
            case .success:
                metrics.succeeded += 1
            case .failure(let error):
                metrics.failed += 1
                metrics.failedByReason[Self.label(error), default: 0] += 1
            }
        }
        shard.finished.add(1, ordering: .relaxed)
    }

    /// Adds what one caller gathered on its own thread (`MetricsTally`) in one go, and empties it.
    func add(_ tally: inout MetricsTally) {
        let shard = self.shard
        if !tally.succeeded.isEmpty {
            shard.state.withLock { metrics in
                for microseconds in tally.succeeded { metrics.latency.record(microseconds: microseconds) }
                metrics.succeeded += tally.succeeded.count
            }
            shard.finished.add(tally.succeeded.count, ordering: .relaxed)
            tally.succeeded.removeAll(keepingCapacity: true)
        }
        if tally.started > 0 { shard.started.add(tally.started, ordering: .relaxed) }
        if tally.sent > 0 { shard.sent.add(tally.sent, ordering: .relaxed) }
        tally.started = 0
        tally.sent = 0
    }

    static func label(_ error: APNsClientError) -> String {
        switch error {
        case .rejected(let rejection): rejection.reason.rawValue
        case .transport: "transport"
        case .timedOut: "timeout"
        case .invalidNotification: "invalid"
        case .invalidConfiguration, .providerToken: "configuration"
        case .shutDown: "shutdown"
        }
    }
}

/// Starts, writes and successes one caller counts on its own thread and adds to a
/// `MetricsRecorder` now and then (`add`): the bulk sender, whose loop would otherwise take a lock
/// and three atomic operations per notification. Failures are recorded as they happen.
struct MetricsTally {
    var started = 0
    var sent = 0
    /// The latency of each success, in microseconds.
    var succeeded: [UInt64] = []
}
