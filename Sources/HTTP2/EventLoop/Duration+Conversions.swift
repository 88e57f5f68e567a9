/// `Duration` in the units loops, timers and reports use.
extension Duration {
    /// Whole nanoseconds, 0 for negative durations, saturating at `UInt64.max` (loop timers, deadlines).
    public var clampedNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        let nanoseconds = Int128(seconds) * 1_000_000_000 + Int128(attoseconds / 1_000_000_000)
        return UInt64(clamping: nanoseconds)
    }

    /// Seconds as a `Double`, for messages and rates.
    public var secondsAsDouble: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
