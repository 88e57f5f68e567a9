import APNs
import Synchronization

/// The emulator's broadcast channels, per bundle id: what `/1/apps/<bundle-id>/channels` creates,
/// reads, deletes and lists, and what broadcasts are checked against.
///
/// Ids are base64 of 16 random bytes and never reused, even after a delete; a channel's storage
/// policy never changes. Each app may hold `limitPerApp` channels (APNs: 10,000 per environment).
/// Thread-safety: `Sendable`; every call takes one lock, so connections on any loop share it.
public final class ChannelStore: Sendable {
    private struct State {
        /// Per bundle id: the live channels, in creation order, and their policies.
        var apps: [String: (order: [ChannelID], policies: [ChannelID: MessageStoragePolicy])] = [:]
        /// Every id ever handed out, so none is handed out twice.
        var issued: Set<ChannelID> = []
    }

    /// Channels one app may hold at once; creating one more answers `CannotCreateChannelConfig`.
    public let limitPerApp: Int
    private let state = Mutex(State())

    public init(limitPerApp: Int = 10_000) {
        self.limitPerApp = max(0, limitPerApp)
    }

    /// Creates a channel for `bundleID`; nil when the app is at its limit (APNs answers
    /// CannotCreateChannelConfig).
    public func create(bundleID: String, policy: MessageStoragePolicy) -> ChannelID? {
        var generator = SystemRandomNumberGenerator()
        return state.withLock { state in
            var app = state.apps[bundleID] ?? ([], [:])
            guard app.order.count < limitPerApp else { return nil }
            var id = ChannelID.random(using: &generator)
            while state.issued.contains(id) { id = ChannelID.random(using: &generator) }
            state.issued.insert(id)
            app.order.append(id)
            app.policies[id] = policy
            state.apps[bundleID] = app
            return id
        }
    }

    /// The channel's storage policy, or nil when `bundleID` has no such channel.
    public func policy(bundleID: String, channel: ChannelID) -> MessageStoragePolicy? {
        state.withLock { $0.apps[bundleID]?.policies[channel] }
    }

    /// Deletes the channel; false when `bundleID` has no such channel.
    public func delete(bundleID: String, channel: ChannelID) -> Bool {
        state.withLock { state in
            guard var app = state.apps[bundleID], app.policies.removeValue(forKey: channel) != nil else { return false }
            app.order.removeAll { $0 == channel }
            state.apps[bundleID] = app
            return true
        }
    }

    /// The app's channels, oldest first.
    public func channels(bundleID: String) -> [ChannelID] {
        state.withLock { $0.apps[bundleID]?.order ?? [] }
    }
}
