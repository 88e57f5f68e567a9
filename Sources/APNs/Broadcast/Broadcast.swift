/// One broadcast push: a Live Activity update or end sent to every device subscribed to a
/// channel (`POST /4/broadcasts/apps/<bundle-id>`).
///
/// The push type is always `liveactivity`; there is no `apns-topic` (the bundle id is in the path).
public struct Broadcast: Sendable, Hashable {
    /// The app's bundle id, without a push-type suffix.
    public var bundleID: String
    public var channelID: ChannelID
    /// `apns-priority`: 10 or 5 (1 is refused); nil sends none (APNs assumes 10).
    public var priority: Priority?
    /// `apns-expiration`; must be 0 on a no-storage channel.
    public var expiration: Expiration?
    /// `apns-request-id`; nil lets the client generate one.
    public var requestID: APNsID?
    public var payload: EncodedPayload

    public init(
        bundleID: String, channelID: ChannelID, priority: Priority? = nil, expiration: Expiration? = nil,
        requestID: APNsID? = nil, payload: EncodedPayload
    ) {
        self.bundleID = bundleID
        self.channelID = channelID
        self.priority = priority
        self.expiration = expiration
        self.requestID = requestID
        self.payload = payload
    }
}

/// The paths of the broadcast endpoints.
public enum BroadcastPaths {
    /// `/4/broadcasts/apps/<bundle-id>`.
    public static func broadcast(bundleID: String) -> String { broadcastPrefix + bundleID }
    /// `/1/apps/<bundle-id>/channels`: create (POST), read (GET), delete (DELETE).
    public static func channels(bundleID: String) -> String { managementPrefix + bundleID + "/channels" }
    /// `/1/apps/<bundle-id>/all-channels`: list (GET).
    public static func allChannels(bundleID: String) -> String { managementPrefix + bundleID + "/all-channels" }

    public static let broadcastPrefix = "/4/broadcasts/apps/"
    public static let managementPrefix = "/1/apps/"
}
