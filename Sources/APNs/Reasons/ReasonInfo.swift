/// What Herald knows about one APNs reason: its status, where it can occur, what to do about it.
public struct ReasonInfo: Sendable, Hashable {
    /// Where a reason can come from.
    public struct Scope: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// `POST /3/device/<token>`.
        public static let device = Scope(rawValue: 1)
        /// `POST /4/broadcasts/apps/<bundle-id>`.
        public static let broadcast = Scope(rawValue: 2)
        /// Channel management, `/1/apps/<bundle-id>/...`.
        public static let channels = Scope(rawValue: 4)
        public static let all: Scope = [.device, .broadcast, .channels]
    }

    /// Whether a request rejected with this reason may be sent again.
    public enum Retry: Sendable, Hashable {
        /// Never: the request or token is wrong and will stay wrong.
        case never
        /// After a fix by the provider (a new provider token, another connection), not blindly.
        case afterFix
        /// Yes, with exponential backoff: the condition is temporary.
        case withBackoff
    }

    public let reason: Reason
    public let status: Int
    public let scope: Scope
    public let retry: Retry
    /// Whether the device token is dead and should be removed from the provider's store.
    public let prunesToken: Bool
    /// Apple's meaning, in one line.
    public let summary: String
}
