/// How the broadcast and channel management checks behave where the credentials decide or Apple is
/// silent.
public struct BroadcastPolicy: Sendable, Equatable {
    /// Bundle ids the credentials cover (certificate topics, or the emulator's apps); another gets
    /// 403 `TopicMismatch`. nil accepts any.
    public var allowedBundleIDs: Set<String>? = nil

    /// Bundle ids with broadcast push enabled; another gets `FeatureNotEnabled`. nil: all.
    public var broadcastEnabledBundleIDs: Set<String>? = nil

    /// Whether a broadcast without `apns-expiration` on a no-storage (policy 0) channel is refused
    /// with `BadExpirationDate`. Apple says the value "must be 0" there but not what an absent
    /// header means; the default takes absence as 0.
    public var noStorageRequiresExplicitExpiration: Bool = false

    public init() {}

    /// The bundle-id checks shared by channel management and broadcasts: a push-type suffix is
    /// `TopicDisallowed`, a malformed id `BadPath`, one the credentials do not cover `TopicMismatch`,
    /// one without the feature `FeatureNotEnabled`.
    func problem(withBundleID bundleID: String) -> Reason? {
        if PushType.knownSuffixes.contains(where: { bundleID.hasSuffix($0) && bundleID.count > $0.count }) {
            return .topicDisallowed
        }
        if Topic.bundleIDProblem(bundleID) != nil { return .badPath }
        if let allowed = allowedBundleIDs, !allowed.contains(bundleID) { return .topicMismatch }
        if let enabled = broadcastEnabledBundleIDs, !enabled.contains(bundleID) { return .featureNotEnabled }
        return nil
    }
}
