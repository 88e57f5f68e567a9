// The last hour of the gateway's metrics, for the console's charts (`GET /v1/metrics/history`).
// `/metrics` serves totals since start; a chart wants rates over time, which Prometheus computes
// from its own scrapes but a browser tab only has from the moment it opened. So the gateway keeps a
// bounded history: every `interval` the sampler (GatewayServer) takes the counters' difference from
// the sample before, one `Sample` per interval, in a ring of `capacity` samples (360 of 10 s: an
// hour), the oldest dropped first. Memory is fixed: a sample holds its interval's counts by status,
// its failure reasons (bounded by the reasons APNs and the gateway name) and three percentiles.
import Synchronization

/// A ring of metric samples, one per interval, the newest last.
///
/// Thread-safety: `Sendable`; one lock around the ring and the previous reading.
public final class GatewayMetricsHistory: Sendable {
    /// One interval's figures: what changed since the sample before.
    public struct Sample: Sendable, Equatable {
        /// When the interval ended (milliseconds since 1970).
        public var at: Int
        /// The interval's length in milliseconds.
        public var milliseconds: Int
        /// Sends that ended in the interval, by status.
        public var sends: [GatewayMetrics.SendStatus: Int]
        /// Sends that did not succeed (retryable or failed) in the interval, by reason.
        public var failures: [String: Int]
        /// Latency percentiles (seconds) of the interval's sends, estimated from the histogram's
        /// buckets as Prometheus's `histogram_quantile` does; nil when nothing was answered.
        public var p50: Double?
        public var p90: Double?
        public var p99: Double?
        /// The queue depth last counted, nil before the first count.
        public var queueDepth: Int?
        /// The interval still running (``samples(until:of:)``'s last), not a kept sample.
        public var partial = false

        /// Sends of every status per second over the interval.
        public var sendsPerSecond: Double {
            milliseconds > 0 ? Double(sends.values.reduce(0, +)) * 1_000 / Double(milliseconds) : 0
        }
    }

    /// Milliseconds between samples.
    public let interval: Int
    /// The most samples kept.
    public let capacity: Int

    private struct Ring {
        var samples: [Sample] = []
        /// Where the next sample goes once the ring is full (the oldest's slot).
        var next = 0
        var previous: GatewayMetrics.State?
        var previousAt: Int?
    }

    private let ring = Mutex(Ring())

    /// `interval` milliseconds between samples (at least 1), `capacity` samples (at least 1): the
    /// default keeps the last hour at one sample per 10 s.
    public init(interval: Int = 10_000, capacity: Int = 360) {
        self.interval = max(1, interval)
        self.capacity = max(1, capacity)
    }

    /// Takes one sample of `metrics` at `now`: the change since the call before. The first call
    /// only takes the reading the next one is compared with.
    public func sample(_ metrics: GatewayMetrics, now: Int) {
        let current = metrics.state.withLock { $0 }
        ring.withLock { ring in
            defer {
                ring.previous = current
                ring.previousAt = now
            }
            guard let previous = ring.previous, let previousAt = ring.previousAt else { return }
            let sample = Self.difference(current, previous, at: now, since: previousAt)
            if ring.samples.count < capacity {
                ring.samples.append(sample)
            } else {
                ring.samples[ring.next] = sample
                ring.next = (ring.next + 1) % capacity
            }
        }
    }

    /// The samples kept, oldest first.
    public var samples: [Sample] {
        ring.withLock { ring in Array(ring.samples[ring.next...] + ring.samples[..<ring.next]) }
    }

    /// The samples kept, then the interval still running up to `now` (marked `partial`; none before
    /// the first reading), so a chart has the last seconds too.
    public func samples(until now: Int, of metrics: GatewayMetrics) -> [Sample] {
        let current = metrics.state.withLock { $0 }
        return ring.withLock { ring in
            var samples = Array(ring.samples[ring.next...] + ring.samples[..<ring.next])
            if let previous = ring.previous, let previousAt = ring.previousAt {
                var running = Self.difference(current, previous, at: max(now, previousAt), since: previousAt)
                running.partial = true
                samples.append(running)
            }
            return samples
        }
    }

    private static func difference(
        _ current: GatewayMetrics.State, _ previous: GatewayMetrics.State, at now: Int, since: Int
    )
        -> Sample
    {
        var sends: [GatewayMetrics.SendStatus: Int] = [:]
        var failures: [String: Int] = [:]
        for (key, count) in current.sends {
            let delta = count - (previous.sends[key] ?? 0)
            guard delta > 0 else { continue }
            sends[key.status, default: 0] += delta
            if key.status != .succeeded { failures[key.reason, default: 0] += delta }
        }
        let buckets = zip(current.latencyBuckets, previous.latencyBuckets).map { $0 - $1 }
        return Sample(
            at: now, milliseconds: now - since, sends: sends, failures: failures,
            p50: quantile(0.5, buckets), p90: quantile(0.9, buckets), p99: quantile(0.99, buckets),
            queueDepth: current.queueDepth)
    }

    /// The `q` quantile in seconds of a histogram's (non-cumulative) bucket counts, the last one +Inf:
    /// linear within the bucket that holds the rank; in the +Inf bucket, the highest finite bound.
    static func quantile(_ q: Double, _ buckets: [Int]) -> Double? {
        let total = buckets.reduce(0, +)
        guard total > 0 else { return nil }
        let rank = q * Double(total)
        var below = 0
        for (index, count) in buckets.enumerated() where count > 0 {
            guard Double(below + count) >= rank else {
                below += count
                continue
            }
            guard index < LatencyBuckets.upperBounds.count else { break }
            let lower = index == 0 ? 0 : Double(LatencyBuckets.upperBounds[index - 1].microseconds)
            let upper = Double(LatencyBuckets.upperBounds[index].microseconds)
            return (lower + (upper - lower) * (rank - Double(below)) / Double(count)) / 1_000_000
        }
        return Double(LatencyBuckets.upperBounds[LatencyBuckets.upperBounds.count - 1].microseconds) / 1_000_000
    }
}
