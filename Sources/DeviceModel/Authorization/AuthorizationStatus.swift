/// `UNAuthorizationStatus`: whether the app may post notifications. Raw values are Apple's.
public enum AuthorizationStatus: Int, Sendable, Hashable, CustomStringConvertible {
    case notDetermined = 0
    case denied = 1
    case authorized = 2
    /// Granted without a prompt; notifications arrive quietly, in Notification Center only.
    case provisional = 3
    /// An App Clip's notifications, for up to 8 hours after each launch.
    case ephemeral = 4

    /// Whether notifications may be delivered to the user at all.
    public var allowsDelivery: Bool {
        self == .authorized || self == .provisional || self == .ephemeral
    }

    public var description: String {
        switch self {
        case .notDetermined: "notDetermined"
        case .denied: "denied"
        case .authorized: "authorized"
        case .provisional: "provisional"
        case .ephemeral: "ephemeral"
        }
    }
}
