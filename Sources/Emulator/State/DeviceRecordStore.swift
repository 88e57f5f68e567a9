/// A simulated device: one app install with its device token.
public struct StoredDevice: Sendable, Equatable {
    /// The APNs environment the token belongs to.
    public enum Environment: String, Sendable, CaseIterable {
        case sandbox, production
    }

    /// The registry's name for the device; unique.
    public var id: String
    /// The device token, lowercase hex; unique among devices.
    public var token: String
    public var bundleID: String
    public var environment: Environment
    public var createdAt: Int

    public init(id: String, token: String, bundleID: String, environment: Environment, createdAt: Int) {
        self.id = id
        self.token = token
        self.bundleID = bundleID
        self.environment = environment
        self.createdAt = createdAt
    }
}

/// A Live Activity token (updates one activity) or a push-to-start token (starts activities of
/// one attributes type), tied to a device.
public struct StoredActivityToken: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case liveActivity = "liveactivity"
        case pushToStart = "pushtostart"
    }

    /// The token, lowercase hex; unique among activity tokens.
    public var token: String
    public var deviceID: String
    public var kind: Kind
    /// The activity id (`liveActivity`) or the attributes type (`pushToStart`), if known.
    public var detail: String?
    public var createdAt: Int

    public init(token: String, deviceID: String, kind: Kind, detail: String? = nil, createdAt: Int) {
        self.token = token
        self.deviceID = deviceID
        self.kind = kind
        self.detail = detail
        self.createdAt = createdAt
    }
}

/// What waits for an offline device: the latest push per app (`channelID` nil) and the latest
/// broadcast per subscribed channel, each exactly as the device will receive it
/// (`DeviceNotification`, docs/EMULATOR.md "Devices").
public struct StoredNotification: Sendable, Equatable {
    public var deviceID: String
    public var bundleID: String
    /// The broadcast channel, for a stored broadcast; nil for a device push.
    public var channelID: String?
    public var apnsID: String
    /// The token it was sent to: the device's own, or one of its activity tokens.
    public var token: String
    /// The request's `apns-topic` as sent (it may carry a push-type suffix).
    public var topic: String
    public var pushType: String
    public var priority: Int
    public var collapseID: String?
    /// The request's `apns-expiration` in seconds since 1970; nil when it had none.
    public var expiration: Int?
    /// The JSON body as the device will receive it.
    public var payload: [UInt8]
    /// When the emulator accepted it.
    public var storedAt: Int
    /// When it stops being handed out (from `expiration`, APNs's default storage for a push
    /// without one, 8 hours at most for a broadcast).
    public var expiresAt: Int

    public init(
        deviceID: String, bundleID: String, channelID: String? = nil, apnsID: String, token: String, topic: String,
        pushType: String, priority: Int, collapseID: String? = nil, expiration: Int? = nil, payload: [UInt8],
        storedAt: Int, expiresAt: Int
    ) {
        self.deviceID = deviceID
        self.bundleID = bundleID
        self.channelID = channelID
        self.apnsID = apnsID
        self.token = token
        self.topic = topic
        self.pushType = pushType
        self.priority = priority
        self.collapseID = collapseID
        self.expiration = expiration
        self.payload = payload
        self.storedAt = storedAt
        self.expiresAt = expiresAt
    }
}

/// A device's subscription to an app's broadcast channel. The channel id is the device's word for
/// it, kept even when no such channel exists (yet, or any more), as the device registry keeps it.
public struct StoredSubscription: Sendable, Equatable {
    public var deviceID: String
    public var bundleID: String
    public var channelID: String
    public var subscribedAt: Int

    public init(deviceID: String, bundleID: String, channelID: String, subscribedAt: Int) {
        self.deviceID = deviceID
        self.bundleID = bundleID
        self.channelID = channelID
        self.subscribedAt = subscribedAt
    }
}

/// Simulated devices and what hangs on them: activity tokens, channel subscriptions and what waits
/// for them while they are offline. Deleting a device deletes all of it.
public protocol DeviceRecordStore: Sendable {
    /// Records a new device; throws `deviceExists` for a known id, `tokenInUse` for another device's token.
    func insertDevice(_ device: StoredDevice) throws(EmulatorStoreError)
    /// The device with this id, or nil.
    func device(id: String) throws(EmulatorStoreError) -> StoredDevice?
    /// The device with this device token (lowercase hex), or nil.
    func device(token: String) throws(EmulatorStoreError) -> StoredDevice?
    /// Every device, in creation order.
    func devices() throws(EmulatorStoreError) -> [StoredDevice]
    /// Deletes the device with its activity tokens, stored notifications and subscriptions; false
    /// when there was no such device.
    func deleteDevice(id: String) throws(EmulatorStoreError) -> Bool

    /// Records an activity token; throws `unknownDevice`, or `tokenInUse` when the token is known.
    func insertActivityToken(_ token: StoredActivityToken) throws(EmulatorStoreError)
    /// The activity token record for `token`, or nil.
    func activityToken(_ token: String) throws(EmulatorStoreError) -> StoredActivityToken?
    /// The device's activity tokens, in creation order.
    func activityTokens(ofDevice deviceID: String) throws(EmulatorStoreError) -> [StoredActivityToken]
    /// Forgets an activity token; false when it was not known.
    func deleteActivityToken(_ token: String) throws(EmulatorStoreError) -> Bool

    /// Keeps `notification` for its device, app and channel (none for a push), replacing the one
    /// kept there before; throws `unknownDevice`.
    func storeNotification(_ notification: StoredNotification) throws(EmulatorStoreError)
    /// What waits for the device, oldest first.
    func storedNotifications(ofDevice deviceID: String) throws(EmulatorStoreError) -> [StoredNotification]
    /// Forgets what waited for the device (it was handed over); returns how many.
    func deleteStoredNotifications(ofDevice deviceID: String) throws(EmulatorStoreError) -> Int
    /// Forgets every stored notification whose `expiresAt` is `now` or earlier; returns how many.
    func deleteExpiredNotifications(now: Int) throws(EmulatorStoreError) -> Int

    /// Subscribes the device to the app's channel (again: no change); throws `unknownDevice`.
    func subscribe(_ subscription: StoredSubscription) throws(EmulatorStoreError)
    /// The device's subscriptions, in subscription order.
    func subscriptions(ofDevice deviceID: String) throws(EmulatorStoreError) -> [StoredSubscription]
}
