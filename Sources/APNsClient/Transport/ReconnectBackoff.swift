/// When a pool may connect again after failed connects: 100 ms after the first failure, doubling
/// with each further one up to 30 s, each delay scaled by a jitter in 0.5...1 (so that many
/// clients do not reconnect in step). A successful connect resets it. Times are nanoseconds on
/// any monotonic clock the caller passes in (`EventLoop.now()` in the pool, a fake one in tests).
///
/// A value type with no clock of its own, so it is tested without waiting.
struct ReconnectBackoff: Equatable {
    static let initialDelay: UInt64 = 100_000_000
    static let maximumDelay: UInt64 = 30_000_000_000

    private(set) var consecutiveFailures = 0
    /// No connect starts before this time.
    private(set) var nextAttemptAt: UInt64 = 0

    /// The delay after `failures` consecutive failures (1 or more), before jitter.
    static func delay(afterFailures failures: Int) -> UInt64 {
        guard failures > 0 else { return 0 }
        return min(initialDelay << UInt64(min(failures - 1, 9)), maximumDelay)
    }

    /// A connect failed at `now`; `jitter` (clamped to 0.5...1) scales the delay.
    mutating func failed(now: UInt64, jitter: Double) {
        consecutiveFailures += 1
        let scale = min(max(jitter, 0.5), 1.0)
        nextAttemptAt = now &+ UInt64(Double(Self.delay(afterFailures: consecutiveFailures)) * scale)
    }

    /// A connect succeeded: the next failure starts again at 100 ms.
    mutating func succeeded() {
        consecutiveFailures = 0
        nextAttemptAt = 0
    }

    /// How long to wait at `now` before connecting; 0 means connect now.
    func wait(now: UInt64) -> UInt64 {
        now < nextAttemptAt ? nextAttemptAt - now : 0
    }
}
