import APNs
import Testing

@testable import Emulator

@Suite("Devices: registry and store-and-forward", .timeLimit(.minutes(1)))
struct DeviceRegistryTests {
    let clock = TestClock()
    let registry: DeviceRegistry

    init() {
        registry = DeviceRegistry(clock: clock.read)
    }

    @Test("registering gives a fresh 64-digit token routed to the app and environment")
    func register() throws {
        let token = try registry.register(bundleID: "com.example.app", environment: .production)
        let other = try registry.register(bundleID: "com.example.app", environment: .production)
        #expect(token.count == 64 && (try? DeviceToken(hex: token)) != nil)
        #expect(token != other)
        #expect(
            registry.route(for: token)
                == .init(deviceToken: token, bundleID: "com.example.app", environment: .production, kind: .device))
        #expect(throws: DeviceError.self) { try registry.register(bundleID: "", environment: .sandbox) }
        do {
            _ = try registry.register(bundleID: "", environment: .sandbox)
        } catch {
            #expect(error.status == 400 && error.reason.hasPrefix("topic:"))
        }
    }

    @Test("online: a push goes to the open stream at once")
    func onlineDelivery() throws {
        let token = try registry.register(bundleID: "com.example.app", environment: .sandbox)
        let sink = RecordingSink()
        _ = try registry.connect(token, sink: sink)
        #expect(registry.isOnline(token))
        #expect(registry.deliver(push("a", to: token, at: clock)) == .delivered)
        #expect(sink.apnsIDs == ["a"])
    }

    @Test("offline: stored, and delivered first when the device comes back")
    func storeAndForward() throws {
        let token = try registry.register(bundleID: "com.example.app", environment: .sandbox)
        #expect(registry.deliver(push("stored", to: token, at: clock)) == .stored)
        let sink = RecordingSink()
        _ = try registry.connect(token, sink: sink)
        registry.deliver(push("live", to: token, at: clock))
        #expect(sink.apnsIDs == ["stored", "live"])
        #expect(registry.storedNotifications(for: token).isEmpty, "handed over, not kept")
    }

    @Test("only the latest push per app is stored: it replaces the earlier one")
    func latestReplaces() throws {
        let token = try registry.register(bundleID: "com.example.app", environment: .sandbox)
        registry.deliver(push("first", to: token, at: clock))
        registry.deliver(push("second", to: token, topic: "com.example.app.push-type.liveactivity", at: clock))
        #expect(registry.storedNotifications(for: token).map(\.apnsID) == ["second"])
        let sink = RecordingSink()
        _ = try registry.connect(token, sink: sink)
        #expect(sink.apnsIDs == ["second"])
    }

    @Test("a collapse id replaces its stored twin")
    func collapseReplaces() throws {
        let token = try registry.register(bundleID: "com.example.app", environment: .sandbox)
        registry.deliver(push("score-1", to: token, collapseID: "score", at: clock))
        registry.deliver(push("score-2", to: token, collapseID: "score", at: clock))
        let sink = RecordingSink()
        _ = try registry.connect(token, sink: sink)
        #expect(sink.apnsIDs == ["score-2"])
        #expect(sink.notifications.first?.collapseID == "score")
    }

    @Test("apns-expiration 0 is never stored; the earlier stored push stays")
    func expirationZeroNeverStored() throws {
        let token = try registry.register(bundleID: "com.example.app", environment: .sandbox)
        registry.deliver(push("kept", to: token, at: clock))
        guard case .notStored = registry.deliver(push("now-or-never", to: token, expiration: 0, at: clock)) else {
            Issue.record("an expiration-0 push was stored")
            return
        }
        let sink = RecordingSink()
        _ = try registry.connect(token, sink: sink)
        #expect(sink.apnsIDs == ["kept"])
    }

    @Test("expired pushes are dropped when the device comes back", arguments: [(59, true), (60, false), (61, false)])
    func expiredDropped(after seconds: Int, delivered: Bool) throws {
        let token = try registry.register(bundleID: "com.example.app", environment: .sandbox)
        #expect(registry.deliver(push("soon", to: token, expiration: clock.now + 60, at: clock)) == .stored)
        clock.advance(seconds)
        let sink = RecordingSink()
        _ = try registry.connect(token, sink: sink)
        #expect(sink.apnsIDs == (delivered ? ["soon"] : []))
    }

    @Test("a push whose expiration has already passed is not stored")
    func alreadyExpired() throws {
        let token = try registry.register(bundleID: "com.example.app", environment: .sandbox)
        #expect(registry.deliver(push("late", to: token, expiration: clock.now - 1, at: clock)) != .stored)
    }

    @Test("without apns-expiration a push is kept for APNs's default storage only")
    func defaultStorage() throws {
        let token = try registry.register(bundleID: "com.example.app", environment: .sandbox)
        registry.deliver(push("old", to: token, at: clock))
        clock.advance(Expiration.maximumStorageSeconds)
        let sink = RecordingSink()
        _ = try registry.connect(token, sink: sink)
        #expect(sink.apnsIDs.isEmpty)
    }

    @Test("a stale listener's disconnect does not take the new one offline")
    func staleDisconnect() throws {
        let token = try registry.register(bundleID: "com.example.app", environment: .sandbox)
        let first = RecordingSink()
        let firstID = try registry.connect(token, sink: first)
        let second = RecordingSink()
        let secondID = try registry.connect(token, sink: second)
        #expect(first.finished, "the replaced listener's stream is ended")
        registry.disconnect(token, connection: firstID)
        #expect(registry.isOnline(token))
        registry.disconnect(token, connection: secondID)
        #expect(!registry.isOnline(token))
        #expect(registry.deliver(push("later", to: token, at: clock)) == .stored)
    }

    @Test(
        "Live Activity and push-to-start tokens route to their device",
        arguments: [DeviceTokenKind.liveActivity, .pushToStart])
    func activityTokens(kind: DeviceTokenKind) throws {
        let device = try registry.register(bundleID: "com.example.app", environment: .sandbox)
        let token = try registry.registerToken(kind, for: device)
        #expect(token.count == 160)
        #expect(
            registry.route(for: token)
                == .init(deviceToken: device, bundleID: "com.example.app", environment: .sandbox, kind: kind))
        let sink = RecordingSink()
        _ = try registry.connect(device, sink: sink)
        #expect(
            registry.deliver(push("la", to: token, topic: "com.example.app.push-type.liveactivity", at: clock))
                == .delivered)
        #expect(sink.notifications.first?.token == token)
        #expect(throws: DeviceError.unknownDevice("00")) { try registry.registerToken(kind, for: "00") }
    }

    @Test("unregistering ends the stream and marks every token of the device with the time")
    func unregister() throws {
        let device = try registry.register(bundleID: "com.example.app", environment: .sandbox)
        let activity = try registry.registerToken(.liveActivity, for: device)
        let sink = RecordingSink()
        _ = try registry.connect(device, sink: sink)
        try registry.unregister(device)
        #expect(sink.finished)
        #expect(registry.route(for: device) == nil && registry.route(for: activity) == nil)
        #expect(registry.unregistered.unregisteredAt(device) == clock.now * 1000)
        #expect(registry.unregistered.unregisteredAt(activity) == clock.now * 1000)
        #expect(registry.deliver(push("gone", to: device, at: clock)) == .unknownToken)
        #expect(throws: DeviceError.unknownDevice(device)) { try registry.unregister(device) }
    }

    @Test("JSON lines round-trip, and a bad line names the field")
    func jsonLines() throws {
        var note = push("x", to: "abcd", collapseID: "c", expiration: 5, at: clock)
        note.channelID = "ch"
        #expect(try DeviceNotification(jsonLine: note.jsonLine()) == note)
        #expect(note.jsonLine().last == UInt8(ascii: "\n"))
        #expect(throws: DeviceError.invalid(field: "priority", rule: "is missing or not an integer")) {
            try DeviceNotification(
                jsonLine: Array(#"{"apns-id":"a","token":"b","topic":"c","push-type":"alert","payload":{}}"#.utf8))
        }
    }
}

@Suite("Devices: waiting for presence", .timeLimit(.minutes(1)))
struct DevicePresenceTests {
    let registry = DeviceRegistry(clock: TestClock().read)

    @Test("a wait returns when the device connects, and when it disconnects")
    func waitsForBoth() async throws {
        let token = try registry.register(bundleID: "com.example.app", environment: .sandbox)
        let registry = self.registry
        async let online: Void = registry.waitForPresence(token, online: true)
        // The wait may start before or after the connect: either way it returns.
        let connection = try registry.connect(token, sink: RecordingSink())
        await online
        #expect(registry.isOnline(token))
        async let offline: Void = registry.waitForPresence(token, online: false)
        registry.disconnect(token, connection: connection)
        await offline
        #expect(!registry.isOnline(token))
    }

    @Test("a cancelled wait returns without the device ever connecting")
    func cancelled() async throws {
        let token = try registry.register(bundleID: "com.example.app", environment: .sandbox)
        let registry = self.registry
        let wait = Task { await registry.waitForPresence(token, online: true) }
        wait.cancel()
        await wait.value
        #expect(!registry.isOnline(token))
    }
}

/// What clients can make the registry hold is bounded.
@Suite(.timeLimit(.minutes(1)))
struct DeviceLimitTests {
    @Test func registrationBeyondTheDeviceLimitIsRefused() throws {
        let registry = DeviceRegistry()
        for _ in 0..<DeviceRegistry.maximumDevices {
            _ = try registry.register(bundleID: "com.example.app", environment: .sandbox)
        }
        #expect(throws: DeviceError.self) { try registry.register(bundleID: "com.example.app", environment: .sandbox) }
        do {
            _ = try registry.register(bundleID: "com.example.app", environment: .sandbox)
        } catch {
            #expect(error.status == 429 && error.reason.hasPrefix("devices:"))
        }
        #expect(registry.deviceCount == DeviceRegistry.maximumDevices)
    }

    @Test func aDeviceHoldsABoundedNumberOfActivityTokens() throws {
        let registry = DeviceRegistry()
        let device = try registry.register(bundleID: "com.example.app", environment: .sandbox)
        for _ in 0..<DeviceRegistry.maximumTokensPerDevice {
            _ = try registry.registerToken(.liveActivity, for: device)
        }
        do {
            _ = try registry.registerToken(.pushToStart, for: device)
            Issue.record("the token beyond the limit must be refused")
        } catch {
            #expect(error.status == 429 && error.reason.hasPrefix("tokens:"))
        }
    }
}
