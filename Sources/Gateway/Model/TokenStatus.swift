/// Whether a token (a device's or a Live Activity's) is sent to.
///
/// ```
///            upload (PUT) -- always, whatever the status
///   +-----------------------------------------------+
///   v                                               |
/// active --410 Unregistered, registered before T--> unregistered
///   |
///   +--BadDeviceToken / DeviceTokenNotForTopic----> invalid
/// ```
/// Only `active` tokens become recipients; the others are kept so that a re-upload revives them
/// and so that "why does this user get nothing?" has an answer (`statusReason`).
public enum TokenStatus: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case active
    /// APNs answered 410 with a timestamp later than the token's last upload.
    case unregistered
    /// APNs refused the token for its environment or its topic.
    case invalid

    public var description: String { rawValue }
}
