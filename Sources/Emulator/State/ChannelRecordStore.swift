import APNs

/// A broadcast channel as stored.
public struct StoredChannel: Sendable, Equatable {
    public var bundleID: String
    public var id: ChannelID
    public var policy: MessageStoragePolicy
    public var createdAt: Int

    public init(bundleID: String, id: ChannelID, policy: MessageStoragePolicy, createdAt: Int) {
        self.bundleID = bundleID
        self.id = id
        self.policy = policy
        self.createdAt = createdAt
    }
}

/// Broadcast channels (the devices' subscriptions and stored broadcasts are device records).
public protocol ChannelRecordStore: Sendable {
    /// Records a new live channel and issues its id; throws `channelIDIssued` if the id was ever issued.
    func insertChannel(_ channel: StoredChannel) throws(EmulatorStoreError)
    /// Deletes the live channel; the id stays issued. Devices' subscriptions to it and broadcasts
    /// stored from it stay, as the device registry keeps them. False when `bundleID` has no such
    /// live channel.
    func deleteChannel(bundleID: String, id: ChannelID) throws(EmulatorStoreError) -> Bool
    /// Every app's live channels, in creation order.
    func liveChannels() throws(EmulatorStoreError) -> [StoredChannel]
    /// Every id ever issued, deleted channels' included.
    func issuedChannelIDs() throws(EmulatorStoreError) -> Set<ChannelID>
}
