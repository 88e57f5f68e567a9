import APNs
import Synchronization

/// The emulator's state in memory: the twin of `SQLiteEmulatorStore`, with the same answers, kept
/// only as long as the process (or the value) lives.
///
/// Thread-safety: `Sendable`; every call takes one lock.
public final class InMemoryEmulatorStore: EmulatorStore {
    struct State {
        var deliveries: [Delivery] = []
        var deliveryTotal = 0
        var unregistered: [String: Int] = [:]
        var channels: [StoredChannel] = []
        var issued: Set<ChannelID> = []
        var devices: [StoredDevice] = []
        var activityTokens: [StoredActivityToken] = []
        /// In subscription order.
        var subscriptions: [StoredSubscription] = []
        /// In the order stored; one per device, app and channel (none for a push).
        var notifications: [StoredNotification] = []
    }

    let state = Mutex(State())

    public init() {}

    // MARK: - Delivery log

    public func write(_ batch: DeliveryBatch, capacity: Int) throws(EmulatorStoreError) {
        state.withLock { state in
            if batch.clearFirst { state.deliveries.removeAll() }
            state.deliveries += batch.entries
            state.deliveryTotal = batch.total
            let excess = state.deliveries.count - max(0, capacity)
            if excess > 0 { state.deliveries.removeFirst(excess) }
        }
    }

    public func loadDeliveries(newest limit: Int) throws(EmulatorStoreError) -> (entries: [Delivery], total: Int) {
        state.withLock { (Array($0.deliveries.suffix(max(0, limit))), $0.deliveryTotal) }
    }

    // MARK: - Unregistered tokens

    public func markUnregistered(_ token: String, at milliseconds: Int) throws(EmulatorStoreError) {
        state.withLock { $0.unregistered[token] = milliseconds }
    }

    public func unregisteredTokens() throws(EmulatorStoreError) -> [String: Int] {
        state.withLock { $0.unregistered }
    }

    // MARK: - Channels

    public func insertChannel(_ channel: StoredChannel) throws(EmulatorStoreError) {
        try state.withLock { state throws(EmulatorStoreError) in
            guard state.issued.insert(channel.id).inserted else { throw .channelIDIssued(channel.id.value) }
            state.channels.append(channel)
        }
    }

    public func deleteChannel(bundleID: String, id: ChannelID) throws(EmulatorStoreError) -> Bool {
        state.withLock { state in
            guard let index = state.channels.firstIndex(where: { $0.id == id && $0.bundleID == bundleID }) else {
                return false
            }
            state.channels.remove(at: index)
            return true
        }
    }

    public func liveChannels() throws(EmulatorStoreError) -> [StoredChannel] {
        state.withLock { $0.channels }
    }

    public func issuedChannelIDs() throws(EmulatorStoreError) -> Set<ChannelID> {
        state.withLock { $0.issued }
    }
}
