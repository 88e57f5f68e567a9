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
        /// (device id, channel), in subscription order.
        var subscriptions: [(deviceID: String, channel: ChannelID)] = []
        var broadcasts: [ChannelID: StoredBroadcast] = [:]
        var devices: [StoredDevice] = []
        var activityTokens: [StoredActivityToken] = []
        var notifications: [NotificationKey: StoredNotification] = [:]

        struct NotificationKey: Hashable {
            let deviceID: String
            let bundleID: String
        }
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
            state.subscriptions.removeAll { $0.channel == id }
            state.broadcasts[id] = nil
            return true
        }
    }

    public func liveChannels() throws(EmulatorStoreError) -> [StoredChannel] {
        state.withLock { $0.channels }
    }

    public func issuedChannelIDs() throws(EmulatorStoreError) -> Set<ChannelID> {
        state.withLock { $0.issued }
    }

    public func subscribe(deviceID: String, channel: ChannelID, at milliseconds: Int) throws(EmulatorStoreError) {
        try state.withLock { state throws(EmulatorStoreError) in
            guard state.devices.contains(where: { $0.id == deviceID }) else { throw .unknownDevice(deviceID) }
            guard state.channels.contains(where: { $0.id == channel }) else { throw .unknownChannel(channel.value) }
            if !state.subscriptions.contains(where: { $0.deviceID == deviceID && $0.channel == channel }) {
                state.subscriptions.append((deviceID, channel))
            }
        }
    }

    public func unsubscribe(deviceID: String, channel: ChannelID) throws(EmulatorStoreError) -> Bool {
        state.withLock { state in
            let before = state.subscriptions.count
            state.subscriptions.removeAll { $0.deviceID == deviceID && $0.channel == channel }
            return state.subscriptions.count < before
        }
    }

    public func subscribers(of channel: ChannelID) throws(EmulatorStoreError) -> [String] {
        state.withLock { $0.subscriptions.filter { $0.channel == channel }.map(\.deviceID) }
    }

    public func subscriptions(ofDevice deviceID: String) throws(EmulatorStoreError) -> [ChannelID] {
        state.withLock { $0.subscriptions.filter { $0.deviceID == deviceID }.map(\.channel) }
    }

    public func storeBroadcast(_ broadcast: StoredBroadcast) throws(EmulatorStoreError) {
        try state.withLock { state throws(EmulatorStoreError) in
            guard state.channels.contains(where: { $0.id == broadcast.channel }) else {
                throw .unknownChannel(broadcast.channel.value)
            }
            state.broadcasts[broadcast.channel] = broadcast
        }
    }

    public func storedBroadcast(channel: ChannelID, now: Int) throws(EmulatorStoreError) -> StoredBroadcast? {
        state.withLock { state in state.broadcasts[channel].flatMap { $0.expiresAt > now ? $0 : nil } }
    }

    public func deleteExpiredBroadcasts(now: Int) throws(EmulatorStoreError) -> Int {
        state.withLock { state in
            let expired = state.broadcasts.filter { $0.value.expiresAt <= now }.keys
            for channel in expired { state.broadcasts[channel] = nil }
            return expired.count
        }
    }
}
