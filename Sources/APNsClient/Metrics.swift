import APNs
import Synchronization

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

/// Collects metrics from any thread: counters that change on every send are atomics; the
/// histogram and the failure table change under one lock, once per notification.
final class MetricsRecorder: Sendable {
    private let state = Mutex(MetricsSnapshot())
    private let inFlight = Atomic<Int>(0)
    private let sent = Atomic<Int>(0)
    private let retries = Atomic<Int>(0)

    var snapshot: MetricsSnapshot {
        var snapshot = state.withLock { $0 }
        snapshot.inFlight = inFlight.load(ordering: .relaxed)
        snapshot.sent = sent.load(ordering: .relaxed)
        snapshot.retried = retries.load(ordering: .relaxed)
        return snapshot
    }

    func started() {
        inFlight.add(1, ordering: .relaxed)
    }

    func wroteRequest() {
        sent.add(1, ordering: .relaxed)
    }

    func retried() {
        retries.add(1, ordering: .relaxed)
    }

    func finished(_ result: Result<APNsResponse, APNsClientError>, microseconds: UInt64) {
        state.withLock { metrics in
            metrics.latency.record(microseconds: microseconds)
            switch result {
            case .success:
                metrics.succeeded += 1
            case .failure(let error):
                metrics.failed += 1
                metrics.failedByReason[Self.label(error), default: 0] += 1
            }
        }
        inFlight.subtract(1, ordering: .relaxed)
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
