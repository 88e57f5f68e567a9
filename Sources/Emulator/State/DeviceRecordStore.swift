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

/// The notification APNs keeps for an offline device: one per device and app, the newest wins.
public struct StoredNotification: Sendable, Equatable {
    public var deviceID: String
    public var bundleID: String
    public var apnsID: String
    public var pushType: String
    public var priority: Int
    public var collapseID: String?
    public var payload: [UInt8]
    public var storedAt: Int
    /// When APNs would stop trying (the request's `apns-expiration`, in milliseconds).
    public var expiresAt: Int

    public init(
        deviceID: String, bundleID: String, apnsID: String, pushType: String, priority: Int, collapseID: String? = nil,
        payload: [UInt8], storedAt: Int, expiresAt: Int
    ) {
        self.deviceID = deviceID
        self.bundleID = bundleID
        self.apnsID = apnsID
        self.pushType = pushType
        self.priority = priority
        self.collapseID = collapseID
        self.payload = payload
        self.storedAt = storedAt
        self.expiresAt = expiresAt
    }
}

/// Simulated devices, their activity tokens and their stored notifications.
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

    /// Keeps `notification` for its device and app, replacing the one kept before; throws `unknownDevice`.
    func storeNotification(_ notification: StoredNotification) throws(EmulatorStoreError)
    /// The notification kept for the device and app, or nil.
    func storedNotification(deviceID: String, bundleID: String) throws(EmulatorStoreError) -> StoredNotification?
    /// Removes and returns the notification kept for the device and app (it was delivered), or nil.
    func takeStoredNotification(deviceID: String, bundleID: String) throws(EmulatorStoreError) -> StoredNotification?
}
