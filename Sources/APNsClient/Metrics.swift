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

/// Collects metrics from any thread.
final class MetricsRecorder: Sendable {
    private let state = Mutex(MetricsSnapshot())

    var snapshot: MetricsSnapshot { state.withLock { $0 } }

    func started() {
        state.withLock { $0.inFlight += 1 }
    }

    func wroteRequest() {
        state.withLock { $0.sent += 1 }
    }

    func retried() {
        state.withLock { $0.retried += 1 }
    }

    func connectionCount(_ count: Int) {
        state.withLock { $0.connections = count }
    }

    func finished(_ result: Result<APNsResponse, APNsClientError>, microseconds: UInt64) {
        state.withLock { metrics in
            metrics.inFlight -= 1
            metrics.latency.record(microseconds: microseconds)
            switch result {
            case .success:
                metrics.succeeded += 1
            case .failure(let error):
                metrics.failed += 1
                metrics.failedByReason[Self.label(error), default: 0] += 1
            }
        }
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
