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

/// The broadcast a channel with policy 1 (most recent message) keeps for devices that subscribe later.
public struct StoredBroadcast: Sendable, Equatable {
    /// How long a stored broadcast lives (APNs: 8 hours), in milliseconds.
    public static let lifetime = 8 * 3600 * 1000

    public var channel: ChannelID
    public var requestID: String
    public var priority: Int
    public var payload: [UInt8]
    public var storedAt: Int
    /// When it stops being handed out; `storedAt + lifetime` unless the broadcast's expiration is sooner.
    public var expiresAt: Int

    public init(
        channel: ChannelID, requestID: String, priority: Int, payload: [UInt8], storedAt: Int,
        expiresAt: Int? = nil
    ) {
        self.channel = channel
        self.requestID = requestID
        self.priority = priority
        self.payload = payload
        self.storedAt = storedAt
        self.expiresAt = expiresAt ?? storedAt + Self.lifetime
    }
}

/// Broadcast channels, the devices subscribed to them and each channel's stored broadcast.
public protocol ChannelRecordStore: Sendable {
    /// Records a new live channel and issues its id; throws `channelIDIssued` if the id was ever issued.
    func insertChannel(_ channel: StoredChannel) throws(EmulatorStoreError)
    /// Deletes the live channel, its subscriptions and its stored broadcast; the id stays issued.
    /// False when `bundleID` has no such live channel.
    func deleteChannel(bundleID: String, id: ChannelID) throws(EmulatorStoreError) -> Bool
    /// Every app's live channels, in creation order.
    func liveChannels() throws(EmulatorStoreError) -> [StoredChannel]
    /// Every id ever issued, deleted channels' included.
    func issuedChannelIDs() throws(EmulatorStoreError) -> Set<ChannelID>

    /// Subscribes the device to the channel (again: no change); throws `unknownDevice` or `unknownChannel`.
    func subscribe(deviceID: String, channel: ChannelID, at milliseconds: Int) throws(EmulatorStoreError)
    /// Ends the subscription; false when there was none.
    func unsubscribe(deviceID: String, channel: ChannelID) throws(EmulatorStoreError) -> Bool
    /// The ids of the devices subscribed to the channel, in subscription order.
    func subscribers(of channel: ChannelID) throws(EmulatorStoreError) -> [String]
    /// The channels the device is subscribed to, in subscription order.
    func subscriptions(ofDevice deviceID: String) throws(EmulatorStoreError) -> [ChannelID]

    /// Keeps `broadcast` as its channel's stored broadcast, replacing the previous one; throws
    /// `unknownChannel`.
    func storeBroadcast(_ broadcast: StoredBroadcast) throws(EmulatorStoreError)
    /// The channel's stored broadcast, or nil when there is none or it expired by `now`.
    func storedBroadcast(channel: ChannelID, now: Int) throws(EmulatorStoreError) -> StoredBroadcast?
    /// Deletes every stored broadcast expired by `now`; returns how many.
    func deleteExpiredBroadcasts(now: Int) throws(EmulatorStoreError) -> Int
}
