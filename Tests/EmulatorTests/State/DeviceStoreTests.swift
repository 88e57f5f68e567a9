import APNs
import Emulator
import Testing

/// Devices, activity tokens, stored notifications, subscriptions and stored broadcasts against
/// every `EmulatorStore` (the tables the device registry will use).
@Suite(.timeLimit(.minutes(1)))
struct DeviceStoreTests {
    static let phone = StoredDevice(
        id: "phone", token: String(repeating: "0a", count: 32), bundleID: "com.example.app", environment: .sandbox,
        createdAt: 1)
    static let pad = StoredDevice(
        id: "pad", token: String(repeating: "0b", count: 32), bundleID: "com.example.app", environment: .production,
        createdAt: 2)

    func notification(_ device: String, _ bundleID: String, _ apnsID: String) -> StoredNotification {
        StoredNotification(
            deviceID: device, bundleID: bundleID, apnsID: apnsID, pushType: "alert", priority: 10, collapseID: "c",
            payload: Array(#"{"aps":{}}"#.utf8), storedAt: 5, expiresAt: 99)
    }

    func channel(_ store: any EmulatorStore, policy: MessageStoragePolicy = .mostRecentMessage) throws -> ChannelID {
        var generator = SystemRandomNumberGenerator()
        let id = ChannelID.random(using: &generator)
        try store.insertChannel(StoredChannel(bundleID: "com.example.app", id: id, policy: policy, createdAt: 0))
        return id
    }

    @Test(arguments: StoreKind.allCases)
    func devicesAreFoundByIDAndTokenAndAreUnique(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        try fixture.store.insertDevice(Self.phone)
        try fixture.store.insertDevice(Self.pad)
        #expect(throws: EmulatorStoreError.deviceExists("phone")) { try fixture.store.insertDevice(Self.phone) }
        var sameToken = Self.pad
        sameToken.id = "watch"
        #expect(throws: EmulatorStoreError.tokenInUse(Self.pad.token)) { try fixture.store.insertDevice(sameToken) }

        let store = try fixture.reopened()
        #expect(try store.devices() == [Self.phone, Self.pad])
        #expect(try store.device(id: "pad") == Self.pad)
        #expect(try store.device(token: Self.phone.token) == Self.phone)
        #expect(try store.device(id: "watch") == nil)
        #expect(try store.deleteDevice(id: "pad"))
        #expect(try !store.deleteDevice(id: "pad"))
        #expect(try store.devices() == [Self.phone])
    }

    @Test(arguments: StoreKind.allCases)
    func activityTokensBelongToADevice(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let update = StoredActivityToken(
            token: "a1", deviceID: "phone", kind: .liveActivity, detail: "activity-1", createdAt: 3)
        let start = StoredActivityToken(
            token: "b2", deviceID: "phone", kind: .pushToStart, detail: "DeliveryAttributes", createdAt: 4)
        #expect(throws: EmulatorStoreError.unknownDevice("phone")) { try fixture.store.insertActivityToken(update) }
        try fixture.store.insertDevice(Self.phone)
        try fixture.store.insertActivityToken(update)
        try fixture.store.insertActivityToken(start)
        #expect(throws: EmulatorStoreError.tokenInUse("a1")) { try fixture.store.insertActivityToken(update) }

        let store = try fixture.reopened()
        #expect(try store.activityTokens(ofDevice: "phone") == [update, start])
        #expect(try store.activityToken("b2") == start)
        #expect(try store.deleteActivityToken("a1"))
        #expect(try !store.deleteActivityToken("a1"))
        #expect(try store.activityTokens(ofDevice: "phone") == [start])
    }

    @Test(arguments: StoreKind.allCases)
    func oneStoredNotificationPerDeviceAndAppTheNewestWins(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        #expect(throws: EmulatorStoreError.unknownDevice("phone")) {
            try fixture.store.storeNotification(notification("phone", "com.example.app", "1"))
        }
        try fixture.store.insertDevice(Self.phone)
        try fixture.store.storeNotification(notification("phone", "com.example.app", "1"))
        try fixture.store.storeNotification(notification("phone", "com.example.app", "2"))
        try fixture.store.storeNotification(notification("phone", "com.example.other", "3"))

        let store = try fixture.reopened()
        #expect(
            try store.storedNotification(deviceID: "phone", bundleID: "com.example.app")
                == notification("phone", "com.example.app", "2"))
        #expect(try store.takeStoredNotification(deviceID: "phone", bundleID: "com.example.app")?.apnsID == "2")
        #expect(try store.takeStoredNotification(deviceID: "phone", bundleID: "com.example.app") == nil, "taken")
        #expect(try store.storedNotification(deviceID: "phone", bundleID: "com.example.other")?.apnsID == "3")
    }

    @Test(arguments: StoreKind.allCases)
    func subscriptionsNeedADeviceAndALiveChannel(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let first = try channel(fixture.store)
        let second = try channel(fixture.store)
        #expect(throws: EmulatorStoreError.unknownDevice("phone")) {
            try fixture.store.subscribe(deviceID: "phone", channel: first, at: 1)
        }
        try fixture.store.insertDevice(Self.phone)
        try fixture.store.insertDevice(Self.pad)
        var generator = SystemRandomNumberGenerator()
        let unknown = ChannelID.random(using: &generator)
        #expect(throws: EmulatorStoreError.unknownChannel(unknown.value)) {
            try fixture.store.subscribe(deviceID: "phone", channel: unknown, at: 1)
        }
        try fixture.store.subscribe(deviceID: "pad", channel: first, at: 1)
        try fixture.store.subscribe(deviceID: "phone", channel: first, at: 2)
        try fixture.store.subscribe(deviceID: "phone", channel: second, at: 3)
        try fixture.store.subscribe(deviceID: "pad", channel: first, at: 4)  // again: no change

        let store = try fixture.reopened()
        #expect(try store.subscribers(of: first) == ["pad", "phone"])
        #expect(try store.subscriptions(ofDevice: "phone") == [first, second])
        #expect(try store.unsubscribe(deviceID: "pad", channel: first))
        #expect(try !store.unsubscribe(deviceID: "pad", channel: first))
        #expect(try store.subscribers(of: first) == ["phone"])
    }

    @Test(arguments: StoreKind.allCases)
    func aStoredBroadcastIsReplacedAndExpires(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let id = try channel(fixture.store)
        let old = StoredBroadcast(channel: id, requestID: "r1", priority: 10, payload: [1], storedAt: 1000)
        #expect(old.expiresAt == 1000 + 8 * 3600 * 1000, "8 hours by default")
        let new = StoredBroadcast(
            channel: id, requestID: "r2", priority: 5, payload: [2], storedAt: 2000, expiresAt: 5000)
        try fixture.store.storeBroadcast(old)
        try fixture.store.storeBroadcast(new)
        var generator = SystemRandomNumberGenerator()
        let unknown = ChannelID.random(using: &generator)
        #expect(throws: EmulatorStoreError.unknownChannel(unknown.value)) {
            try fixture.store.storeBroadcast(
                StoredBroadcast(channel: unknown, requestID: "r", priority: 10, payload: [], storedAt: 0))
        }

        let store = try fixture.reopened()
        #expect(try store.storedBroadcast(channel: id, now: 4999) == new)
        #expect(try store.storedBroadcast(channel: id, now: 5000) == nil, "expired")
        #expect(try store.deleteExpiredBroadcasts(now: 4999) == 0)
        #expect(try store.deleteExpiredBroadcasts(now: 5000) == 1)
        #expect(try store.storedBroadcast(channel: id, now: 0) == nil, "deleted")
    }

    @Test(arguments: StoreKind.allCases)
    func deletingADeviceOrAChannelTakesWhatHangsOnIt(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let store = fixture.store
        let id = try channel(store)
        try store.insertDevice(Self.phone)
        try store.insertDevice(Self.pad)
        try store.insertActivityToken(
            StoredActivityToken(token: "a1", deviceID: "phone", kind: .liveActivity, createdAt: 0))
        try store.storeNotification(notification("phone", "com.example.app", "1"))
        try store.subscribe(deviceID: "phone", channel: id, at: 0)
        try store.subscribe(deviceID: "pad", channel: id, at: 0)
        try store.storeBroadcast(StoredBroadcast(channel: id, requestID: "r", priority: 10, payload: [], storedAt: 0))

        #expect(try store.deleteDevice(id: "phone"))
        #expect(try store.activityToken("a1") == nil)
        #expect(try store.storedNotification(deviceID: "phone", bundleID: "com.example.app") == nil)
        #expect(try store.subscribers(of: id) == ["pad"])

        #expect(try store.deleteChannel(bundleID: "com.example.app", id: id))
        #expect(try store.subscriptions(ofDevice: "pad").isEmpty)
        #expect(try store.storedBroadcast(channel: id, now: 0) == nil)
        try store.insertDevice(Self.phone)
        #expect(try store.activityTokens(ofDevice: "phone").isEmpty, "a device made again starts empty")
    }
}
