import APNs
import HTTP2
import Synchronization

/// The emulator's broadcast channels, per bundle id: what `/1/apps/<bundle-id>/channels` creates,
/// reads, deletes and lists, and what broadcasts are checked against.
///
/// Ids are base64 of 16 random bytes and never reused, even after a delete (or, with a store, a
/// restart); a channel's storage policy never changes. Each app may hold `limitPerApp` channels
/// (APNs: 10,000 per environment).
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
    private let state = AnnotatedMutex(State())
    /// With a store, creates and deletes are written through to it (a failure is counted, not thrown).
    private let store: (any ChannelRecordStore)?
    private let status: StoreStatus?
    /// Milliseconds since 1970, for `StoredChannel.createdAt`.
    private let clock: @Sendable () -> Int

    public init(limitPerApp: Int = 10_000) {
        self.limitPerApp = max(0, limitPerApp)
        store = nil
        status = nil
        clock = { 0 }
    }

    /// A store that starts with `channels` and `issued` ids (as loaded from `store`) and writes
    /// changes through to it.
    init(
        limitPerApp: Int, restoring channels: [StoredChannel], issued: Set<ChannelID>, store: any ChannelRecordStore,
        status: StoreStatus, clock: @escaping @Sendable () -> Int
    ) {
        self.limitPerApp = max(0, limitPerApp)
        self.store = store
        self.status = status
        self.clock = clock
        state.withLock { state in
            state.issued = issued
            for channel in channels {
                state.issued.insert(channel.id)
                var app = state.apps[channel.bundleID] ?? ([], [:])
                app.order.append(channel.id)
                app.policies[channel.id] = channel.policy
                state.apps[channel.bundleID] = app
            }
        }
    }

    /// Creates a channel for `bundleID`; nil when the app is at its limit (APNs answers
    /// CannotCreateChannelConfig).
    public func create(bundleID: String, policy: MessageStoragePolicy) -> ChannelID? {
        let created = state.withLock { state -> ChannelID? in
            var app = state.apps[bundleID] ?? ([], [:])
            guard app.order.count < limitPerApp else { return nil }
            // Made here, not captured from outside the closure: ThreadSanitizer crashed (SEGV in
            // its exclusive-access check) on a captured, storage-less generator passed inout in here.
            var generator = SystemRandomNumberGenerator()
            var id = ChannelID.random(using: &generator)
            while state.issued.contains(id) { id = ChannelID.random(using: &generator) }
            state.issued.insert(id)
            app.order.append(id)
            app.policies[id] = policy
            state.apps[bundleID] = app
            return id
        }
        if let created, let store {
            do {
                try store.insertChannel(
                    StoredChannel(bundleID: bundleID, id: created, policy: policy, createdAt: clock()))
            } catch {
                status?.record(error)
            }
        }
        return created
    }

    /// The channel's storage policy, or nil when `bundleID` has no such channel.
    public func policy(bundleID: String, channel: ChannelID) -> MessageStoragePolicy? {
        state.withLock { $0.apps[bundleID]?.policies[channel] }
    }

    /// Deletes the channel; false when `bundleID` has no such channel.
    public func delete(bundleID: String, channel: ChannelID) -> Bool {
        let deleted = state.withLock { state in
            guard var app = state.apps[bundleID], app.policies.removeValue(forKey: channel) != nil else { return false }
            app.order.removeAll { $0 == channel }
            state.apps[bundleID] = app
            return true
        }
        if deleted, let store {
            do {
                _ = try store.deleteChannel(bundleID: bundleID, id: channel)
            } catch {
                status?.record(error)
            }
        }
        return deleted
    }

    /// The app's channels, oldest first.
    public func channels(bundleID: String) -> [ChannelID] {
        state.withLock { $0.apps[bundleID]?.order ?? [] }
    }
}
