import APNs
import Gateway
import Testing

/// Live Activity tokens and the pruning rule applied directly (`prune`), against every store that
/// keeps them; PruningTests covers the same rule reached through delivery outcomes.
@Suite(.timeLimit(.minutes(3)))
struct LiveActivityStoreTests {
    @Test(arguments: StoreKind.allCases)
    func pushToStartTokensAreListedByUserReplacedAndDeleted(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let store = fixture.store
        for (n, user, type) in [(1, "alice", "Score"), (2, "bob", "Score"), (3, "alice", "Delivery")] {
            _ = try await store.upsertPushToStartToken(
                bundleID: bundleID, token: try token(n), environment: .production, user: user, attributesType: type,
                now: Clock.start + n)
        }
        let replaced = try await store.upsertPushToStartToken(
            bundleID: bundleID, token: try token(1), environment: .sandbox, user: "alice", attributesType: "Race",
            now: Clock.start + 10)
        #expect(replaced.registeredAt == Clock.start + 10 && replaced.status == .active)

        let alice = try await fixture.reopened().pushToStartTokens(bundleID: bundleID, user: "alice")
        #expect(alice.map(\.token) == [try token(1), try token(3)], "in upload order, a replaced one keeps its place")
        #expect(alice.first == replaced)
        #expect(alice.last?.attributesType == "Delivery" && alice.last?.registeredAt == Clock.start + 3)
        #expect(try await store.pushToStartTokens(bundleID: "com.example.other", user: "alice").isEmpty)

        #expect(try await store.deletePushToStartToken(bundleID: bundleID, token: try token(1)))
        #expect(try await !store.deletePushToStartToken(bundleID: bundleID, token: try token(1)), "deleted already")
        #expect(try await store.pushToStartTokens(bundleID: bundleID, user: "alice").map(\.token) == [try token(3)])
    }

    @Test(arguments: StoreKind.allCases)
    func anActivityHasTheTokenOfItsLastUpload(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let store = fixture.store
        _ = try await store.upsertActivityToken(
            bundleID: bundleID, activityID: "game-1", token: try token(20), environment: .sandbox, user: "alice",
            now: Clock.start)
        let latest = try await store.upsertActivityToken(
            bundleID: bundleID, activityID: "game-1", token: try token(21), environment: .production, user: nil,
            now: Clock.start + 1)
        #expect(try await fixture.reopened().activityToken(bundleID: bundleID, activityID: "game-1") == latest)
        #expect(latest.token == (try token(21)) && latest.user == nil && latest.environment == .production)
        #expect(try await store.activityToken(bundleID: bundleID, activityID: "game-2") == nil)
        #expect(try await store.deleteActivityToken(bundleID: bundleID, activityID: "game-1"))
        #expect(try await !store.deleteActivityToken(bundleID: bundleID, activityID: "game-1"))
        #expect(try await store.activityToken(bundleID: bundleID, activityID: "game-1") == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func pruneAppliesTheRuleToTheTokenOfEachKind(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let store = fixture.store
        _ = try await store.upsertDevice(try registration(1), now: Clock.start)
        _ = try await store.upsertActivityToken(
            bundleID: bundleID, activityID: "game-1", token: try token(2), environment: .sandbox, user: nil,
            now: Clock.start)
        _ = try await store.upsertPushToStartToken(
            bundleID: bundleID, token: try token(3), environment: .production, user: "alice", attributesType: "Score",
            now: Clock.start)

        let stale = PruneAction.unregister(timestamp: Clock.start, statusReason: "Unregistered")
        let gone = PruneAction.unregister(timestamp: Clock.start + 1, statusReason: "Unregistered")
        let hex = { (n: Int) throws -> String in try token(n).hex }
        #expect(try await !store.prune(stale, bundleID: bundleID, kind: .device, token: hex(1)), "uploaded since")
        #expect(try await store.prune(gone, bundleID: bundleID, kind: .device, token: hex(1)))
        #expect(
            try await !store.prune(
                .invalidate(environment: .production, statusReason: "BadDeviceToken"), bundleID: bundleID,
                kind: .activity, token: hex(2)), "a sandbox token refused by production is left alone")
        #expect(
            try await store.prune(
                .invalidate(environment: .sandbox, statusReason: "BadDeviceToken"), bundleID: bundleID,
                kind: .activity, token: hex(2)))
        #expect(
            try await store.prune(
                .invalidateForTopic(statusReason: "DeviceTokenNotForTopic"), bundleID: bundleID, kind: .pushToStart,
                token: hex(3)))
        #expect(try await !store.prune(gone, bundleID: bundleID, kind: .channel, token: "channel-id"))

        let reopened = try fixture.reopened()
        let device = try #require(try await reopened.device(bundleID: bundleID, token: try token(1)))
        #expect(device.status == .unregistered && device.statusReason == "Unregistered")
        let activity = try #require(try await reopened.activityToken(bundleID: bundleID, activityID: "game-1"))
        #expect(activity.status == .invalid && activity.statusReason == "BadDeviceToken")
        #expect(
            try await reopened.pushToStartTokens(bundleID: bundleID, user: "alice").map(\.statusReason) == [
                "DeviceTokenNotForTopic"
            ])
        #expect(try await reopened.deviceCounts(bundleID: bundleID) == [.unregistered: 1])

        // An upload revives a pruned token.
        _ = try await store.upsertDevice(try registration(1), now: Clock.start + 2)
        #expect(try await reopened.device(bundleID: bundleID, token: try token(1))?.statusReason == nil)
        #expect(try await reopened.deviceCounts(bundleID: bundleID) == [.active: 1])
    }
}
