import APNs

extension Delivery {
    /// This pending delivery after `result` at `now`, and what to do to its token. Both stores
    /// apply outcomes through this one function.
    public func applying(
        _ result: DeliveryOutcome.Result, backoff: DeliveryBackoff, topic: String, now: Int
    ) -> (delivery: Delivery, prune: PruneAction?) {
        var next = self
        next.attempts += 1
        next.lastAttemptAt = now
        next.claimedBy = nil
        next.claimedUntil = nil
        switch result {
        case .succeeded(let uniqueID):
            next.status = .succeeded
            next.reason = nil
            next.apnsUniqueID = uniqueID
            return (next, nil)
        case .retryable(let reason):
            next.reason = reason
            if let delay = backoff.delay(afterAttempts: next.attempts) {
                next.nextAttemptAt = now + delay
            } else {
                next.status = .failed
            }
            return (next, nil)
        case .failed(let reason, let timestamp):
            next.status = .failed
            next.reason = reason.rawValue
            let prune =
                kind == .channel
                ? nil
                : PruneRule.action(for: reason, timestamp: timestamp, environment: environment, topic: topic, now: now)
            return (next, prune)
        }
    }
}

extension NotificationRequest {
    /// The `apns-topic` its requests carry: the bundle id with the push type's suffix.
    public var topic: String { bundleID + (pushType.topicSuffix ?? "") }
}
