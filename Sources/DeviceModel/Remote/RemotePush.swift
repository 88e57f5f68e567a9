import APNs

/// A push as it reaches the device from APNs: the headers that matter on the device, and the payload bytes.
public struct RemotePush: Sendable, Hashable {
    public var token: DeviceToken
    public var pushType: PushType
    /// `apns-collapse-id`: becomes the request's identifier.
    public var collapseID: String?
    /// `apns-id`, for the timeline.
    public var apnsID: String?
    public var payload: [UInt8]
    /// `apns-priority`: 10 (immediate, the default), 5 (power-aware) or 1. A Live Activity update at 10 counts
    /// against the activity's budget.
    public var priority: Int
    /// `apns-channel-id` of a broadcast: the push reaches every activity subscribed to the channel, and `token`
    /// only says which device it came to.
    public var channelID: String?

    public init(
        token: DeviceToken, pushType: PushType = .alert, collapseID: String? = nil, apnsID: String? = nil,
        payload: [UInt8], priority: Int = 10, channelID: String? = nil
    ) {
        self.token = token
        self.pushType = pushType
        self.collapseID = collapseID
        self.apnsID = apnsID
        self.payload = payload
        self.priority = priority
        self.channelID = channelID
    }

    /// A push with a payload built in Swift.
    public init(
        token: DeviceToken, pushType: PushType = .alert, collapseID: String? = nil, apnsID: String? = nil,
        payload: Payload, priority: Int = 10, channelID: String? = nil
    ) {
        self.init(
            token: token, pushType: pushType, collapseID: collapseID, apnsID: apnsID, payload: payload.encoded().bytes,
            priority: priority, channelID: channelID)
    }
}

/// What a push asks of the device (DEVICE-SEMANTICS.md 3.3).
public enum PushClassification: String, Sendable, Hashable {
    /// `alert`, `sound` or `badge`: something for the user.
    case alert
    /// `content-available: 1` alone: the app is woken, the user sees nothing.
    case background
    /// Both: shown, and the app woken.
    case alertAndBackground = "alert+background"
    /// Neither.
    case nothing

    public init(_ aps: APS) {
        let alert = aps.alert != nil || aps.sound != nil || aps.badge != nil
        let background = aps.contentAvailable == 1
        switch (alert, background) {
        case (true, true): self = .alertAndBackground
        case (true, false): self = .alert
        case (false, true): self = .background
        case (false, false): self = .nothing
        }
    }

    var showsAlert: Bool { self == .alert || self == .alertAndBackground }
    var wakesApp: Bool { self == .background || self == .alertAndBackground }

    var rule: DeviceRule {
        switch self {
        case .alert: .classifyAlert
        case .background: .classifyBackground
        case .alertAndBackground: .classifyAlertAndBackground
        case .nothing: .classifyNothing
        }
    }
}
