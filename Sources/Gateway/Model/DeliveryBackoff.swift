/// When a delivery that failed in a retryable way is tried again, and when it stops being tried.
///
/// This is the queue's retry, across claims and restarts; `APNsClient`'s `RetryPolicy` retries within
/// one send. Delays double from `base` up to `maximum`; after `maximumAttempts` outcomes the delivery
/// fails with its last reason.
public struct DeliveryBackoff: Sendable, Hashable {
    public var maximumAttempts: Int
    /// Milliseconds before the second attempt.
    public var base: Int
    /// Longest wait, in milliseconds.
    public var maximum: Int

    public init(maximumAttempts: Int = 8, base: Int = 1_000, maximum: Int = 300_000) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.base = max(0, base)
        self.maximum = max(self.base, maximum)
    }

    /// Milliseconds to wait after `attempts` outcomes, or nil when that was the last attempt allowed.
    public func delay(afterAttempts attempts: Int) -> Int? {
        guard attempts < maximumAttempts else { return nil }
        let exponent = min(max(attempts - 1, 0), 30)
        return min(maximum, base.multipliedReportingOverflow(by: 1 << exponent).overflow ? maximum : base << exponent)
    }
}
