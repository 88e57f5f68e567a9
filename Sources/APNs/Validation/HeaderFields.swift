/// The regular headers of a request, one value per name (names compared in ASCII lowercase, as
/// HTTP/2 sends them), and whether any name came twice. The broadcast and channel validators read
/// headers through this.
struct HeaderFields {
    private(set) var values: [String: String] = [:]
    private(set) var repeatedNames: Set<String> = []

    init(_ headers: [(name: String, value: String)]) {
        for header in headers {
            let name = header.name.lowercased()
            if values[name] == nil { values[name] = header.value } else { repeatedNames.insert(name) }
        }
    }

    subscript(name: String) -> String? { values[name] }

    /// The request id every answer carries: the request's `apns-request-id` (lowercase) when it sent
    /// exactly one valid one, else a generated one; `malformed` when it sent a bad one.
    func requestID() -> (id: String, malformed: Bool) {
        guard let value = values["apns-request-id"] else { return (APNsID.random().value, false) }
        if repeatedNames.contains("apns-request-id") { return (APNsID.random().value, true) }
        guard let id = try? APNsID(value) else { return (APNsID.random().value, true) }
        return (id.value, false)
    }
}

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

extension PushRejection {
    /// The rejection APNs answers with `reason`: its status from `Reason.table` (400 for a reason
    /// outside it), echoing `id` (an `apns-id` or `apns-request-id`).
    public init(_ reason: Reason, id: String) {
        self.init(status: reason.status ?? 400, reason: reason, apnsID: id)
    }
}
