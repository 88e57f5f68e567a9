import APNs

/// Which failures are resent, how often and after how long.
///
/// Resent: 429 TooManyRequests, 500, 503 (the reason table's `withBackoff` class), and transport
/// failures that certainly did not reach APNs. Never resent: anything Apple says not to retry
/// (BadDeviceToken, Unregistered, PayloadTooLarge, ...), and a transport failure that a resend
/// would meet again (a server certificate that does not verify). A resend keeps the same apns-id.
/// Delays grow exponentially from `baseDelay` to `maximumDelay`, with full jitter.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts in all, the first included; 1 disables retries.
    public var maximumAttempts: Int
    public var baseDelay: Duration
    public var maximumDelay: Duration
    /// Whether a transport failure that may have reached APNs is resent anyway (risking a duplicate
    /// notification rather than a lost one).
    public var resendPossiblyDelivered: Bool

    public init(
        maximumAttempts: Int = 3, baseDelay: Duration = .milliseconds(100), maximumDelay: Duration = .seconds(5),
        resendPossiblyDelivered: Bool = false
    ) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.resendPossiblyDelivered = resendPossiblyDelivered
    }

    /// Never resend.
    public static let none = RetryPolicy(maximumAttempts: 1)

    /// Whether `error` may be resent at all, whatever the attempt count.
    public func isRetryable(_ error: APNsClientError) -> Bool {
        switch error {
        case .rejected(let rejection): rejection.reason.isRetryable
        case .transport(let failure): !failure.isPermanent && (!failure.mayHaveReachedAPNs || resendPossiblyDelivered)
        case .timedOut: resendPossiblyDelivered
        case .invalidNotification, .invalidConfiguration, .providerToken, .shutDown: false
        }
    }

    /// The delay before attempt `attempt + 1` after `attempt` failed with `error` (attempts count
    /// from 1), or nil to give up. `random` picks the jitter in 0...1.
    public func delay(afterAttempt attempt: Int, failingWith error: APNsClientError, random: () -> Double) -> Duration?
    {
        guard attempt < maximumAttempts, isRetryable(error) else { return nil }
        let exponent = min(attempt - 1, 30)
        let ceiling = min(maximumDelay, baseDelay * (1 << exponent))
        let fraction = min(max(random(), 0), 1)
        return ceiling * fraction
    }
}
