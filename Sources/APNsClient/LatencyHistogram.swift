/// Latencies in buckets of about 6% width (16 sub-buckets per power of two of microseconds), so
/// percentiles cost a fixed 1 KB whatever the number of requests.
public struct LatencyHistogram: Sendable, Equatable {
    private static let subBuckets = 16
    private static let bucketCount = 40 * subBuckets
    private var counts = [UInt64](repeating: 0, count: bucketCount)
    public private(set) var count: UInt64 = 0
    public private(set) var maximumMicroseconds: UInt64 = 0

    public init() {}

    public mutating func record(microseconds: UInt64) {
        counts[Self.bucket(for: microseconds)] += 1
        count += 1
        maximumMicroseconds = max(maximumMicroseconds, microseconds)
    }

    public mutating func merge(_ other: LatencyHistogram) {
        for index in counts.indices { counts[index] += other.counts[index] }
        count += other.count
        maximumMicroseconds = max(maximumMicroseconds, other.maximumMicroseconds)
    }

    /// The latency below which `fraction` (0...1) of the recorded ones fall, in microseconds (the
    /// upper edge of its bucket, capped at the maximum seen); 0 when nothing was recorded.
    public func percentile(_ fraction: Double) -> UInt64 {
        guard count > 0 else { return 0 }
        let target = max(1, UInt64((Double(count) * min(max(fraction, 0), 1)).rounded(.up)))
        var seen: UInt64 = 0
        for (index, bucketCount) in counts.enumerated() where bucketCount > 0 {
            seen += bucketCount
            if seen >= target { return min(Self.upperEdge(of: index), maximumMicroseconds) }
        }
        return maximumMicroseconds
    }

    static func bucket(for microseconds: UInt64) -> Int {
        guard microseconds >= UInt64(subBuckets) else { return Int(microseconds) }
        let exponent = 63 - microseconds.leadingZeroBitCount  // >= 4
        let shift = exponent - 4
        let mantissa = Int((microseconds >> UInt64(shift)) & 0x0F)
        return min((shift + 1) * subBuckets + mantissa, bucketCount - 1)
    }

    static func upperEdge(of bucket: Int) -> UInt64 {
        guard bucket >= subBuckets else { return UInt64(bucket) }
        let shift = bucket / subBuckets - 1
        let mantissa = UInt64(bucket % subBuckets)
        return ((16 + mantissa + 1) << UInt64(shift)) - 1
    }
}
