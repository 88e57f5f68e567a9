/// How the emulator's device-push checks behave where the credentials decide or Apple is silent.
public struct DevicePushPolicy: Sendable, Equatable {
    /// Whether a push without `apns-topic` (and no `defaultTopic`) is refused with `MissingTopic`,
    /// as with token auth and multi-topic certificates.
    public var topicRequired: Bool = true

    /// The bundle ids the credentials cover (certificate topics, or the emulator's configured
    /// apps); a topic whose bundle id is not here gets `TopicDisallowed`. nil accepts any.
    public var allowedBundleIDs: Set<String>? = nil

    /// The topic of a single-topic certificate, used when `apns-topic` is absent. It stands for
    /// the certificate's app: the push goes to its bundle id with the suffix the push type needs
    /// (a default of `com.example.app` sends a VoIP push to `com.example.app.voip`), so a header
    /// the provider never wrote cannot carry a wrong suffix.
    public var defaultTopic: String? = nil

    /// Whether a background push at priority 10, written or assumed (absent header), is refused
    /// with `BadPriority`. Apple: "using priority 10 is an error"; it does not name the reason.
    public var backgroundPriority10IsRejected: Bool = true

    /// Whether a Live Activity push at priority 1 is refused with `BadPriority`. Apple documents 5
    /// and 10 only for `liveactivity` ("5 (not budgeted) or 10 (budgeted)"); it names no reason.
    public var liveActivityPriority1IsRejected: Bool = true

    /// The reason for a body that is not a JSON object (malformed JSON, or an array, string, ...).
    ///
    /// Apple documents no reason for this on `/3/device`: `BadRequestPayload` exists only for
    /// broadcasts and channel management, and peers' mocks (Pushy's `MockApnsServer`, for one)
    /// never parse the body at all. The default is `PayloadEmpty` (400): the only documented
    /// device reason about the body's content, which tells a provider to look at its payload, and
    /// a 400 like every other malformed-request answer. Set another reason to mimic what a given
    /// APNs deployment is seen to answer; its status comes from the reason table (400 when the
    /// reason is not in it).
    public var invalidJSONReason: Reason = .payloadEmpty

    public init() {}
}
