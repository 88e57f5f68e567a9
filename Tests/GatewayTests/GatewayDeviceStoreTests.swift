import APNs
import Gateway
import Testing

/// Devices against every `GatewayStore`, read back after a "restart".
// Each SQLite call suspends and resumes through the shared cooperative pool: alone these tests
// take well under a second, but inside a full run on a loaded 2-core machine the waits for a pool
// thread add up past a minute. The limit is there to catch a hang, not to time the machine.
@Suite(.timeLimit(.minutes(3)))
struct GatewayDeviceStoreTests {
    @Test(arguments: StoreKind.allCases)
    func anUploadIsStoredWithEveryField(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let upload = DeviceRegistration(
            bundleID: bundleID, token: try token(1), environment: .sandbox, user: "alice",
            tags: ["news", "beta", "news"],
            locale: "fr_FR", appVersion: "2.1")
        let stored = try await fixture.store.upsertDevice(upload, now: Clock.start)
        #expect(stored.status == .active && stored.registeredAt == Clock.start && stored.statusReason == nil)
        let read = try await fixture.reopened().device(bundleID: bundleID, token: try token(1))
        #expect(read == stored)
        #expect(read?.tags == ["beta", "news"], "sorted, without repeats")
        #expect(try await fixture.store.device(bundleID: "com.example.other", token: try token(1)) == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func tokensOfAnyEvenLengthAreKept(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        for hex in ["ab", String(repeating: "c0ffee", count: 30)] {
            let registration = DeviceRegistration(
                bundleID: bundleID, token: try DeviceToken(hex: hex), environment: .production)
            _ = try await fixture.store.upsertDevice(registration, now: Clock.start)
            #expect(
                try await fixture.reopened().device(bundleID: bundleID, token: try DeviceToken(hex: hex))?.token.hex
                    == hex)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aReuploadReplacesTheFieldsAndRefreshesTheTime(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        _ = try await fixture.store.upsertDevice(try registration(1, user: "alice", tags: ["a"]), now: Clock.start)
        _ = try await fixture.store.upsertDevice(
            try registration(1, environment: .sandbox, tags: ["b"]), now: Clock.start + 5)
        let device = try #require(try await fixture.reopened().device(bundleID: bundleID, token: try token(1)))
        #expect(device.registeredAt == Clock.start + 5)
        #expect(device.environment == .sandbox && device.user == nil && device.tags == ["b"])
        #expect(try await fixture.store.deviceCounts(bundleID: bundleID) == [.active: 1])
    }

    @Test(arguments: StoreKind.allCases)
    func devicesAreDeletedAndListedByUser(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        for n in 1...4 {
            _ = try await fixture.store.upsertDevice(
                try registration(n, user: n % 2 == 0 ? "bob" : "alice"), now: Clock.start + n)
        }
        #expect(try await fixture.store.deleteDevice(bundleID: bundleID, token: try token(2)))
        #expect(try await !fixture.store.deleteDevice(bundleID: bundleID, token: try token(2)), "gone already")
        let store = try fixture.reopened()
        #expect(
            try await store.devices(bundleID: bundleID, user: "alice").map(\.token) == [try token(1), try token(3)])
        #expect(try await store.devices(bundleID: bundleID, user: "bob").map(\.token) == [try token(4)])
        #expect(try await store.devices(bundleID: bundleID, user: "carol").isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func aBulkImportIsReadInBatches(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let registrations = (1...2_500).lazy.compactMap { try? registration($0, tags: ["all"]) }
        let imported = try await fixture.store.importDevices(registrations, batchSize: 1_000, now: Clock.start)
        #expect(imported == 2_500)
        // The same tokens again (an app's table moved in twice): refreshed, not doubled.
        try await fixture.store.importDevices([try registration(7, user: "u7")], now: Clock.start + 1)
        let store = try fixture.reopened()
        #expect(try await store.deviceCounts(bundleID: bundleID) == [.active: 2_500])
        #expect(try await store.device(bundleID: bundleID, token: try token(7))?.registeredAt == Clock.start + 1)
        #expect(try await store.devices(bundleID: bundleID, user: "u7").count == 1)
    }
}
