// The pruning rule (Apple, "Handling notification responses from APNs"): on 410, "the value of the
// timestamp key in the response body is the last time APNs confirmed the device token was no longer
// valid for the topic"; Apple asks providers to stop sending to the token unless the app registered
// it again after that time. BadDeviceToken ("the specified device token is invalid") is most often a
// token of the other environment; DeviceTokenNotForTopic means the token belongs to another app.
import APNs

/// What an APNs rejection does to the token it was sent to; `PruneRule.action` decides.
public enum PruneAction: Sendable, Hashable {
    /// 410: `unregistered`, unless the token was uploaded at or after `timestamp` (ms).
    case unregister(timestamp: Int, statusReason: String)
    /// BadDeviceToken: `invalid` as a token of `environment` (a token uploaded since for the other
    /// environment is left alone).
    case invalidate(environment: Environment, statusReason: String)
    /// DeviceTokenNotForTopic: `invalid` for this app, whatever the environment.
    case invalidateForTopic(statusReason: String)

    public var statusReason: String {
        switch self {
        case .unregister(_, let text), .invalidate(_, let text), .invalidateForTopic(let text): text
        }
    }
}

/// The pruning rule as a pure function of a rejection; the stores carry it out.
public enum PruneRule {
    /// The action `reason` calls for on a token of `environment` sent with `topic`, or nil when the
    /// token stays active. Reads `Reason.prunesToken` from the one reason table. A 410 without a
    /// timestamp (APNs always sends one) uses `now`, the time the answer arrived.
    public static func action(
        for reason: Reason, timestamp: Int?, environment: Environment, topic: String, now: Int
    ) -> PruneAction? {
        guard reason.prunesToken, let info = reason.info else { return nil }
        switch reason {
        case .badDeviceToken:
            return .invalidate(
                environment: environment,
                statusReason:
                    "BadDeviceToken: APNs's \(environment) environment refused the token; a token of the other "
                    + "environment (\(environment.other)) is the usual cause: upload it with environment \(environment.other) if so"
            )
        case .deviceTokenNotForTopic:
            return .invalidateForTopic(
                statusReason:
                    "DeviceTokenNotForTopic: the device token does not match the topic \(topic) (it belongs to another app)"
            )
        default:
            let confirmed = timestamp ?? now
            return .unregister(
                timestamp: confirmed,
                statusReason: "\(reason) (\(info.status)): \(info.summary) APNs confirmed it at \(confirmed) ms")
        }
    }
}
