import APNs
import APNsClient

/// How a ``DeliveryEngine`` claims, sends and retries.
///
/// Thread-safety: a value type; `Sendable`.
public struct DeliveryEngineConfiguration: Sendable {
    /// Deliveries taken per claim (one store transaction), at most `StoreLimits.maximumBatch`; also
    /// the rows a worker makes (and claims) per expansion transaction.
    public var claimBatchSize: Int
    /// How long a claim holds its rows. A worker renews the leases of the batch it is sending
    /// (when two thirds are left, then every third), so a slow batch is not claimed again; a worker
    /// that dies leaves its rows to come back this long after its last renewal.
    public var leaseMilliseconds: Int
    /// Sends in flight at most, over every app and environment. The engine runs
    /// `max(2, sendConcurrency / claimBatchSize)` workers (one when this is 1), each sending one
    /// batch at a time (while it claims the next and records the last) with an equal share of this:
    /// memory is bounded by the workers' batches, never by a fan-out.
    public var sendConcurrency: Int
    /// The queue's own retry of 429, 5xx and transport failures, across claims and restarts.
    public var backoff: DeliveryBackoff
    /// How often an idle engine looks for work it was not woken for: scheduled notifications
    /// coming due, retries whose backoff ended, leases that ran out.
    public var idlePollInterval: Duration
    /// How often the pending deliveries are counted for the queue-depth metric.
    public var queueDepthInterval: Duration
    /// This process's name in `claimed-by`; distinct per process sharing a store.
    public var claimer: String
    /// Milliseconds since 1970: claims, leases, backoff and scheduled sends read it.
    public var clock: @Sendable () -> Int

    public init(
        claimBatchSize: Int = 500, leaseMilliseconds: Int = 120_000, sendConcurrency: Int = 1_000,
        backoff: DeliveryBackoff = DeliveryBackoff(), idlePollInterval: Duration = .seconds(1),
        queueDepthInterval: Duration = .seconds(10),
        claimer: String = "gateway-" + APNsID.random().value.prefix(8),
        clock: @escaping @Sendable () -> Int = GatewayConfiguration.systemMillisecondClock
    ) {
        self.claimBatchSize = min(max(1, claimBatchSize), StoreLimits.maximumBatch)
        self.leaseMilliseconds = max(1, leaseMilliseconds)
        self.sendConcurrency = max(1, sendConcurrency)
        self.backoff = backoff
        self.idlePollInterval = idlePollInterval
        self.queueDepthInterval = queueDepthInterval
        self.claimer = claimer
        self.clock = clock
    }

    /// Workers, and the sends in flight each may have.
    var workers: (count: Int, concurrency: Int) {
        // Two at least, so one worker's batch is sent while another's waits on the store.
        let count = sendConcurrency < 2 ? 1 : max(2, sendConcurrency / claimBatchSize)
        return (count, max(1, sendConcurrency / count))
    }

    /// The retry policy the gateway's `APNsClient`s should have: a resend within the send only
    /// for what is cheap to try at once (a refused stream, a connection lost before the request
    /// left, one short wait on 429/5xx), so a batch is not held for seconds; longer waits are the
    /// queue's `backoff`, which frees the worker and survives a restart. (ExpiredProviderToken is
    /// re-signed and resent by the client whatever its policy.)
    public static let clientRetryPolicy = RetryPolicy(
        maximumAttempts: 2, baseDelay: .milliseconds(50), maximumDelay: .milliseconds(200))
}
