import APNs
import Emulator
import Testing

/// Devices, activity tokens, what waits for an offline device (pushes and broadcasts) and
/// subscriptions against every `EmulatorStore`: the records the device registry writes.
@Suite(.timeLimit(.minutes(1)))
struct DeviceStoreTests {
    static let phone = StoredDevice(
        id: "phone", token: String(repeating: "0a", count: 32), bundleID: "com.example.app", environment: .sandbox,
        createdAt: 1)
    static let pad = StoredDevice(
        id: "pad", token: String(repeating: "0b", count: 32), bundleID: "com.example.app", environment: .production,
        createdAt: 2)

    /// A stored push (`channel` nil) or broadcast for `device`, every optional field set on odd `n`.
    func notification(_ device: String, _ bundleID: String, channel: String? = nil, _ n: Int) -> StoredNotification {
        StoredNotification(
            deviceID: device, bundleID: bundleID, channelID: channel, apnsID: "id-\(n)",
            token: String(repeating: "0a", count: 32),
            topic: channel == nil ? bundleID : bundleID + ".push-type.liveactivity",
            pushType: channel == nil ? "alert" : "liveactivity", priority: 10, collapseID: n % 2 == 1 ? "c" : nil,
            expiration: n % 2 == 1 ? 1_800_000_000 + n : nil, payload: Array(#"{"aps":{"n":\#(n)}}"#.utf8),
            storedAt: 1000 + n, expiresAt: 2000 + n)
    }

    func channel(_ store: any EmulatorStore) throws -> ChannelID {
        var generator = SystemRandomNumberGenerator()
        let id = ChannelID.random(using: &generator)
        try store.insertChannel(
            StoredChannel(bundleID: "com.example.app", id: id, policy: .mostRecentMessage, createdAt: 0))
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
    func oneWaitingNotificationPerDeviceAppAndChannelTheNewestWins(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        #expect(throws: EmulatorStoreError.unknownDevice("phone")) {
            try fixture.store.storeNotification(notification("phone", "com.example.app", 1))
        }
        try fixture.store.insertDevice(Self.phone)
        try fixture.store.insertDevice(Self.pad)
        let kept = [
            notification("phone", "com.example.app", 2),  // replaces 1
            notification("phone", "com.example.other", 3),
            notification("phone", "com.example.app", channel: "Y2g=", 5),  // replaces 4
            notification("phone", "com.example.app", channel: "not-live", 6),
        ]
        for n in [
            notification("phone", "com.example.app", 1), kept[0], kept[1],
            notification("phone", "com.example.app", channel: "Y2g=", 4), kept[2], kept[3],
            notification("pad", "com.example.app", 7),
        ] {
            try fixture.store.storeNotification(n)
        }

        let store = try fixture.reopened()
        #expect(try store.storedNotifications(ofDevice: "phone") == kept, "oldest first, every field kept")
        #expect(try store.deleteStoredNotifications(ofDevice: "phone") == 4)
        #expect(try store.storedNotifications(ofDevice: "phone").isEmpty, "handed over")
        #expect(try store.storedNotifications(ofDevice: "pad") == [notification("pad", "com.example.app", 7)])
    }

    @Test(arguments: StoreKind.allCases)
    func expiredWaitingNotificationsAreDeleted(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        try fixture.store.insertDevice(Self.phone)
        try fixture.store.storeNotification(notification("phone", "com.example.app", 1))  // until 2001
        try fixture.store.storeNotification(notification("phone", "com.example.app", channel: "Y2g=", 2))  // 2002
        #expect(try fixture.store.deleteExpiredNotifications(now: 2000) == 0)
        #expect(
            try fixture.store.deleteExpiredNotifications(now: 2001) == 1, "expiresAt is the first moment it is gone")
        #expect(try fixture.reopened().storedNotifications(ofDevice: "phone").map(\.apnsID) == ["id-2"])
    }

    @Test(arguments: StoreKind.allCases)
    func subscriptionsNeedADeviceAndKeepAnyChannelID(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        func subscription(_ device: String, _ channel: String, _ at: Int) -> StoredSubscription {
            StoredSubscription(deviceID: device, bundleID: "com.example.app", channelID: channel, subscribedAt: at)
        }
        #expect(throws: EmulatorStoreError.unknownDevice("phone")) {
            try fixture.store.subscribe(subscription("phone", "Y2g=", 1))
        }
        try fixture.store.insertDevice(Self.phone)
        try fixture.store.insertDevice(Self.pad)
        let live = try channel(fixture.store)
        try fixture.store.subscribe(subscription("pad", live.value, 1))
        try fixture.store.subscribe(subscription("phone", live.value, 2))
        try fixture.store.subscribe(subscription("phone", "no such channel", 3))
        try fixture.store.subscribe(subscription("phone", live.value, 4))  // again: no change
        #expect(try fixture.store.deleteChannel(bundleID: "com.example.app", id: live))

        let store = try fixture.reopened()
        #expect(
            try store.subscriptions(ofDevice: "phone") == [
                subscription("phone", live.value, 2), subscription("phone", "no such channel", 3),
            ],
            "in order, a deleted or unknown channel's too")
        #expect(try store.subscriptions(ofDevice: "pad") == [subscription("pad", live.value, 1)])
    }

    @Test(arguments: StoreKind.allCases)
    func deletingADeviceTakesWhatHangsOnIt(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let store = fixture.store
        try store.insertDevice(Self.phone)
        try store.insertDevice(Self.pad)
        try store.insertActivityToken(
            StoredActivityToken(token: "a1", deviceID: "phone", kind: .liveActivity, createdAt: 0))
        try store.storeNotification(notification("phone", "com.example.app", 1))
        try store.storeNotification(notification("phone", "com.example.app", channel: "Y2g=", 2))
        for device in ["phone", "pad"] {
            try store.subscribe(
                StoredSubscription(deviceID: device, bundleID: "com.example.app", channelID: "Y2g=", subscribedAt: 0))
        }

        #expect(try store.deleteDevice(id: "phone"))
        #expect(try store.activityToken("a1") == nil)
        #expect(try store.storedNotifications(ofDevice: "phone").isEmpty)
        #expect(try store.subscriptions(ofDevice: "phone").isEmpty)
        #expect(try store.subscriptions(ofDevice: "pad").count == 1, "another device's stay")
        try store.insertDevice(Self.phone)
        #expect(try store.activityTokens(ofDevice: "phone").isEmpty, "a device made again starts empty")
    }
}
