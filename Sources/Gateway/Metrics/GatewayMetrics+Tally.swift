// Sends counted by one sender before they reach the shared counters: a fan-out's sends all succeed
// alike, so a round adds a run of them under one lock instead of taking it (and hashing a key) for
// each. Sends that do not succeed are recorded at once (`recordSend`): they are rare, and their
// reasons vary.

extension GatewayMetrics {
    /// Successful sends not yet added to the counters; owned by one sender, added with
    /// ``GatewayMetrics/add(_:)``.
    struct SendTally {
        /// Successes per latency bucket (`LatencyBuckets.upperBounds`, then +Inf).
        private(set) var latencyBuckets = [Int](repeating: 0, count: LatencyBuckets.upperBounds.count + 1)
        private(set) var succeeded = 0
        private(set) var latencySumMicroseconds: UInt64 = 0

        /// Counts one send that succeeded after `microseconds`.
        mutating func countSuccess(microseconds: UInt64) {
            succeeded += 1
            latencyBuckets[LatencyBuckets.index(for: microseconds)] += 1
            latencySumMicroseconds &+= microseconds
        }

        /// Forgets what was counted (after it was added).
        fileprivate mutating func clear() {
            if succeeded > 0 {
                for index in latencyBuckets.indices { latencyBuckets[index] = 0 }
                succeeded = 0
                latencySumMicroseconds = 0
            }
        }
    }

    /// Adds what `tally` counted to the counters, under one lock, and clears it.
    func add(_ tally: inout SendTally) {
        if tally.succeeded > 0 {
            state.withLock { state in
                state.sends[SendKey(status: .succeeded, reason: ""), default: 0] += tally.succeeded
                for index in tally.latencyBuckets.indices { state.latencyBuckets[index] += tally.latencyBuckets[index] }
                state.latencySumMicroseconds &+= tally.latencySumMicroseconds
                state.latencyCount += tally.succeeded
            }
        }
        tally.clear()
    }
}
