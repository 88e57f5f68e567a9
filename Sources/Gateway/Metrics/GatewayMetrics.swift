// What the gateway's delivery engine counts, for `GET /metrics` (Prometheus text format,
// GatewayMetrics+Prometheus.swift). The engine records each send as it ends; the queue depth is a
// store count the engine refreshes now and then; open connections are asked of the APNs clients
// when the metrics are rendered.
import Synchronization

/// The gateway's counters: sends by status and reason, send latency, queue depth, pruned tokens,
/// sends in flight and open APNs connections.
///
/// Thread-safety: `Sendable`; record from any thread. A send takes one lock (its counters and its
/// histogram bucket change together) and allocates nothing: reasons are strings the answer
/// already carries, or constants. Rendering reads a consistent copy.
public final class GatewayMetrics: Sendable {
    /// How a send ended: the `status` label.
    public enum SendStatus: String, Sendable, CaseIterable {
        /// APNs accepted it.
        case succeeded
        /// It will be tried again later (429, 5xx, a transport failure).
        case retryable
        /// Final: a 4xx, a retry cap reached, or not sent (no client, a token no longer active).
        case failed
    }

    struct SendKey: Hashable {
        var status: SendStatus
        /// APNs's reason or the gateway's; "" for a success.
        var reason: String
    }

    struct State {
        var sends: [SendKey: Int] = [:]
        /// Per `LatencyBuckets.upperBounds` entry, then one for +Inf; not cumulative.
        var latencyBuckets = [Int](repeating: 0, count: LatencyBuckets.upperBounds.count + 1)
        var latencySumMicroseconds: UInt64 = 0
        var latencyCount = 0
        var pruned = 0
        /// nil until the first count.
        var queueDepth: Int?
        /// The engine's claimer id (`claimed_by`), telling apart processes that share a database.
        var claimer: String?
    }

    let state = Mutex(State())
    let inFlight = Atomic<Int>(0)
    /// Open connections over every APNs client; set by the engine that owns them.
    let connectionCount = Mutex<(@Sendable () -> Int)?>(nil)
    /// The last hour, sampled by the server (`GET /v1/metrics/history`).
    public let history: GatewayMetricsHistory

    public init(history: GatewayMetricsHistory = GatewayMetricsHistory()) {
        self.history = history
    }

    /// Counts one send that ended with `status` (and `reason`, for one that did not succeed)
    /// after `microseconds` (nil: it never went out, e.g. no client for its environment).
    public func recordSend(_ status: SendStatus, reason: String?, microseconds: UInt64?) {
        state.withLock { state in
            state.sends[SendKey(status: status, reason: reason ?? ""), default: 0] += 1
            guard let microseconds else { return }
            state.latencyBuckets[LatencyBuckets.index(for: microseconds)] += 1
            state.latencySumMicroseconds &+= microseconds
            state.latencyCount += 1
        }
    }

    /// Counts tokens the pruning rule changed.
    public func recordPruned(_ count: Int) {
        guard count > 0 else { return }
        state.withLock { $0.pruned += count }
    }

    /// The pending deliveries, as the store last counted them.
    /// Names the process: its delivery engine's claimer id, served as `herald_gateway_instance_info`.
    public func setInstance(claimer: String) {
        state.withLock { $0.claimer = claimer }
    }

    /// The claimer id given to ``setInstance(claimer:)``.
    public var claimer: String? { state.withLock { $0.claimer } }

    public func setQueueDepth(_ depth: Int) {
        state.withLock { $0.queueDepth = depth }
    }

    /// Sends begun and not yet ended.
    public func addInFlight(_ delta: Int) {
        inFlight.add(delta, ordering: .relaxed)
    }

    /// Where the open APNs connections are counted when the metrics are rendered.
    public func countConnections(with source: @escaping @Sendable () -> Int) {
        connectionCount.withLock { $0 = source }
    }

    /// Sends so far by status and reason ("" for successes).
    public var sends: [SendStatus: [String: Int]] {
        state.withLock { state in
            state.sends.reduce(into: [:]) { result, entry in
                result[entry.key.status, default: [:]][entry.key.reason] = entry.value
            }
        }
    }

    /// Sends handed to a client and not yet answered.
    public var sendsInFlight: Int { max(0, inFlight.load(ordering: .relaxed)) }

    /// Tokens pruned so far.
    public var pruned: Int { state.withLock { $0.pruned } }

    /// The last queue depth counted; nil before the first count.
    public var queueDepth: Int? { state.withLock { $0.queueDepth } }
}

/// The latency histogram's buckets: Prometheus's classic boundaries, from 1 ms to 30 s.
enum LatencyBuckets {
    /// Upper bounds in microseconds, with their `le` label.
    static let upperBounds: [(microseconds: UInt64, label: String)] = [
        (1_000, "0.001"), (2_500, "0.0025"), (5_000, "0.005"), (10_000, "0.01"), (25_000, "0.025"),
        (50_000, "0.05"), (100_000, "0.1"), (250_000, "0.25"), (500_000, "0.5"), (1_000_000, "1"),
        (2_500_000, "2.5"), (5_000_000, "5"), (10_000_000, "10"), (30_000_000, "30"),
    ]

    /// The first bucket whose bound is at least `microseconds` (the +Inf one past the last).
    static func index(for microseconds: UInt64) -> Int {
        upperBounds.firstIndex { microseconds <= $0.microseconds } ?? upperBounds.count
    }
}
