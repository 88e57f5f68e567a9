import APNs
import Storage
import Testing

@testable import Emulator

/// The device registry writing through to every `EmulatorStore`, and a registry restored from it
/// answering as the one that wrote it (issue 4).
@Suite("Devices: write-through and restore", .timeLimit(.minutes(1)))
struct DeviceRecordsTests {
    static let app = "com.example.app"
    static let channel = "Y2hhbm5lbA=="
    let clock = TestClock()

    func registry(_ store: any EmulatorStore, _ status: StoreStatus = StoreStatus(kind: "test", path: nil)) throws
        -> DeviceRegistry
    {
        try DeviceRegistry(unregistered: TokenRegistry(), clock: clock.read, restoringFrom: store, status: status)
    }

    /// A device with every kind of state: two activity tokens, a subscription, a stored push and a
    /// stored broadcast; and a second device, unregistered. Returns (device, live activity, push-to-start, gone).
    func populate(_ registry: DeviceRegistry) throws -> (String, String, String, String) {
        let device = try registry.register(bundleID: Self.app, environment: .production)
        let gone = try registry.register(bundleID: Self.app, environment: .sandbox)
        let activity = try registry.registerToken(.liveActivity, for: device)
        let start = try registry.registerToken(.pushToStart, for: device)
        try registry.subscribe(device, channelID: Self.channel)
        try registry.subscribe(gone, channelID: Self.channel)
        #expect(registry.deliver(push("stored", to: device, collapseID: "c", at: clock)) == .stored)
        clock.advance(1)
        let outcome = registry.deliverBroadcast(
            bundleID: Self.app, channelID: Self.channel, payload: Array(#"{"aps":{"event":"update"}}"#.utf8),
            expiration: nil, storesLatest: true, requestID: "broadcast-1", priority: 5)
        #expect(outcome == .init(delivered: 0, stored: 2))
        try registry.unregister(gone)
        return (device, activity, start, gone)
    }

    @Test(arguments: StoreKind.allCases)
    func everyChangeIsWrittenThrough(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let (device, activity, start, gone) = try populate(try registry(fixture.store))
        let store = fixture.store
        let now = clock.now * 1000

        #expect(try store.devices().map(\.token) == [device], "the unregistered device is gone")
        #expect(try store.device(token: gone) == nil)
        #expect(try store.device(id: device)?.environment == .production)
        #expect(
            try store.activityTokens(ofDevice: device).map { [$0.token, $0.kind.rawValue] } == [
                [activity, "liveactivity"], [start, "pushtostart"],
            ])
        #expect(
            try store.subscriptions(ofDevice: device) == [
                StoredSubscription(
                    deviceID: device, bundleID: Self.app, channelID: Self.channel, subscribedAt: now - 1000)
            ])
        let waiting = try store.storedNotifications(ofDevice: device)
        #expect(waiting.map(\.apnsID) == ["stored", "broadcast-1"])
        #expect(waiting.first?.expiresAt == (now - 1000) + Expiration.maximumStorageSeconds * 1000, "30 days")
        #expect(waiting.last?.channelID == Self.channel)
        #expect(waiting.last?.expiresAt == now + DeviceRegistry.broadcastStorageSeconds * 1000, "8 hours")
    }

    @Test(arguments: StoreKind.allCases)
    func aRestoredRegistryAnswersAsTheOneThatWrote(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let before = try registry(fixture.store)
        let (device, activity, start, gone) = try populate(before)

        let after = try registry(try fixture.reopened())
        #expect(after.deviceCount == 1)
        for token in [device, activity, start, gone] {
            #expect(after.route(for: token) == before.route(for: token), "\(token)")
        }
        #expect(!after.isOnline(device), "devices come back offline")
        let expected = RecordingSink()
        _ = try before.connect(device, sink: expected)
        let sink = RecordingSink()
        _ = try after.connect(device, sink: sink)
        #expect(sink.notifications == expected.notifications, "every field, the stored push first")
        #expect(sink.apnsIDs == ["stored", "broadcast-1"])

        // What was handed over is gone from the store too; the subscription stays.
        #expect(try fixture.store.storedNotifications(ofDevice: device).isEmpty)
        let third = try registry(try fixture.reopened())
        let empty = RecordingSink()
        _ = try third.connect(device, sink: empty)
        #expect(empty.notifications.isEmpty)
        let outcome = third.deliverBroadcast(
            bundleID: Self.app, channelID: Self.channel, payload: [], expiration: nil, storesLatest: false)
        #expect(outcome.delivered == 1, "still subscribed")
    }

    @Test(arguments: StoreKind.allCases)
    func whatExpiredWhileStoppedIsDroppedAtLoad(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let before = try registry(fixture.store)
        let device = try before.register(bundleID: Self.app, environment: .sandbox)
        #expect(before.deliver(push("soon", to: device, expiration: clock.now + 60, at: clock)) == .stored)
        clock.advance(60)
        let after = try registry(try fixture.reopened())
        #expect(after.storedNotifications(for: device).isEmpty)
        #expect(try fixture.store.storedNotifications(ofDevice: device).isEmpty, "deleted from the store")
        #expect(after.route(for: device) != nil)
    }

    @Test func aFailedWriteIsCountedAndThePushStillWaits() throws {
        let fixture = try StoreFixture(.sqlite)
        defer { fixture.remove() }
        let status = StoreStatus(kind: "sqlite", path: fixture.path)
        let registry = try registry(fixture.store, status)
        let device = try registry.register(bundleID: Self.app, environment: .sandbox)
        try SQLiteDatabase(path: fixture.path).execute("DROP TABLE stored_notifications")

        #expect(registry.deliver(push("nobody", to: String(repeating: "ee", count: 32), at: clock)) == .unknownToken)
        #expect(status.failureCount == 0, "a push to a token no device holds never touches the store")
        #expect(registry.deliver(push("kept", to: device, at: clock)) == .stored)
        #expect(status.failureCount == 1)
        #expect(status.lastError?.contains("no such table: stored_notifications") == true, "\(status.lastError ?? "")")
        let sink = RecordingSink()
        _ = try registry.connect(device, sink: sink)
        #expect(sink.apnsIDs == ["kept"], "memory answers")
        #expect(status.failureCount == 2, "the hand-over's delete failed too")
    }

    @Test(arguments: StoreKind.allCases)
    func aStoredPayloadThatIsNotJSONIsNamedAtLoad(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let device = try registry(fixture.store).register(bundleID: Self.app, environment: .sandbox)
        try fixture.store.storeNotification(
            StoredNotification(
                deviceID: device, bundleID: Self.app, apnsID: "a", token: device, topic: Self.app, pushType: "alert",
                priority: 10, payload: Array("not json".utf8), storedAt: clock.now * 1000, expiresAt: .max))
        #expect(throws: EmulatorStoreError.corrupt(table: "stored_notifications", column: "payload", value: "not json"))
        {
            try registry(try fixture.reopened())
        }
    }

    @Test(arguments: StoreKind.allCases)
    func concurrentChangesReachTheStoreInTheRegistrysOrder(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let registry = try registry(fixture.store)
        let device = try registry.register(bundleID: Self.app, environment: .sandbox)
        let clock = self.clock
        // Stored pushes replace each other and a connect hands them over: writes that reached the
        // store out of order would leave it with a push memory no longer holds (or without the last
        // one). Whether a given interleaving happens is up to the scheduler: a smoke test, not a proof.
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for i in 0..<150 {
                        if task == 0, i % 5 == 0, let id = try? registry.connect(device, sink: RecordingSink()) {
                            registry.disconnect(device, connection: id)
                        } else {
                            registry.deliver(push("\(task)-\(i)", to: device, at: clock))
                        }
                    }
                }
            }
        }
        let memory = registry.storedNotifications(for: device).map(\.apnsID)
        #expect(try fixture.store.storedNotifications(ofDevice: device).map(\.apnsID) == memory)
    }
}
