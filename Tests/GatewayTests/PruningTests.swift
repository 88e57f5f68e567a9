import APNs
import Gateway
import Testing

/// The pruning rule, carried out when an outcome arrives, against every `GatewayStore`.
// Each SQLite call suspends and resumes through the shared cooperative pool: alone these tests
// take well under a second, but inside a full run on a loaded 2-core machine the waits for a pool
// thread add up past a minute. The limit is there to catch a hang, not to time the machine.
@Suite(.timeLimit(.minutes(3)))
struct PruningTests {
    /// Sends to token 1 at `now`, claims the delivery and records `result` for it.
    private func answer(_ store: any GatewayStore, with result: DeliveryOutcome.Result, now: Int) async throws {
        let id = try await store.send(request(to: .tokens([try token(1)])), now: now)
        let claim = try await store.claimDeliveries(limit: 10, claimer: "w", leaseMilliseconds: 1_000, now: now)
        let delivery = try #require(claim.deliveries.first { $0.notificationID == id })
        try await store.recordOutcomes(
            [DeliveryOutcome(deliveryID: delivery.id, result: result)], backoff: DeliveryBackoff(), now: now)
    }

    @Test(arguments: StoreKind.allCases, [(-1, TokenStatus.active), (0, .active), (1, .unregistered)])
    func unregisteredPrunesOnlyATokenUploadedBeforeAPNsTimestamp(_ kind: StoreKind, _ pair: (Int, TokenStatus))
        async throws
    {
        let (offset, expected) = pair
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let registeredAt = Clock.start + 1_000
        _ = try await fixture.store.upsertDevice(try registration(1), now: registeredAt)
        // APNs confirmed the token dead at registeredAt + offset: before the upload, the app has
        // registered it again since and it stays active.
        try await answer(
            fixture.store, with: .failed(reason: .unregistered, timestamp: registeredAt + offset),
            now: Clock.start + 9_000)
        let device = try #require(try await fixture.reopened().device(bundleID: bundleID, token: try token(1)))
        #expect(device.status == expected)
        #expect((device.statusReason?.contains("Unregistered (410)") ?? false) == (expected == .unregistered))
    }

    @Test(arguments: StoreKind.allCases)
    func badDeviceTokenInvalidatesTheTokenForItsEnvironmentAndSaysWhy(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        _ = try await fixture.store.upsertDevice(try registration(1, environment: .production), now: Clock.start)
        try await answer(fixture.store, with: .failed(reason: .badDeviceToken, timestamp: nil), now: Clock.start + 10)
        let device = try #require(try await fixture.reopened().device(bundleID: bundleID, token: try token(1)))
        #expect(device.status == .invalid)
        let reason = try #require(device.statusReason)
        #expect(reason.contains("BadDeviceToken") && reason.contains("other environment (sandbox)"))
        // The rule touches only a token of the environment APNs refused.
        let action = try #require(
            PruneRule.action(for: .badDeviceToken, timestamp: nil, environment: .production, topic: bundleID, now: 0))
        _ = try await fixture.store.upsertDevice(try registration(1, environment: .sandbox), now: Clock.start + 20)
        #expect(try await !fixture.store.prune(action, bundleID: bundleID, kind: .device, token: try token(1).hex))
        #expect(try await fixture.store.device(bundleID: bundleID, token: try token(1))?.status == .active)
    }

    @Test(arguments: StoreKind.allCases)
    func deviceTokenNotForTopicInvalidatesTheTokenNamingTheTopic(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        _ = try await fixture.store.upsertDevice(try registration(1), now: Clock.start)
        try await answer(
            fixture.store, with: .failed(reason: .deviceTokenNotForTopic, timestamp: nil), now: Clock.start + 10)
        let device = try #require(try await fixture.reopened().device(bundleID: bundleID, token: try token(1)))
        #expect(device.status == .invalid)
        #expect(
            device.statusReason?.contains("DeviceTokenNotForTopic") == true
                && device.statusReason?.contains(bundleID) == true)
    }

    @Test(arguments: StoreKind.allCases)
    func otherFailuresLeaveTheTokenActive(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        _ = try await fixture.store.upsertDevice(try registration(1), now: Clock.start)
        try await answer(fixture.store, with: .failed(reason: .payloadTooLarge, timestamp: nil), now: Clock.start + 10)
        #expect(try await fixture.store.device(bundleID: bundleID, token: try token(1))?.status == .active)
    }

    @Test(arguments: StoreKind.allCases)
    func aReuploadRevivesAPrunedTokenAndItIsSentToAgain(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        _ = try await fixture.store.upsertDevice(try registration(1, user: "alice"), now: Clock.start)
        _ = try await fixture.store.upsertDevice(try registration(2, user: "alice"), now: Clock.start)
        try await answer(
            fixture.store, with: .failed(reason: .unregistered, timestamp: Clock.start + 5), now: Clock.start + 10)
        #expect(try await fixture.store.deviceCounts(bundleID: bundleID) == [.active: 1, .unregistered: 1])

        // Not active: not a recipient.
        let skipped = try await fixture.store.send(request(to: .users(["alice"])), now: Clock.start + 20)
        #expect(try await fixture.store.allDeliveries(skipped).map(\.recipient) == [try token(2).hex])

        let revived = try await fixture.store.upsertDevice(try registration(1, user: "alice"), now: Clock.start + 30)
        #expect(revived.status == .active && revived.statusReason == nil)
        let store = try fixture.reopened()
        #expect(try await store.device(bundleID: bundleID, token: try token(1)) == revived)
        let sent = try await store.send(request(to: .users(["alice"])), now: Clock.start + 40)
        #expect(Set(try await store.allDeliveries(sent).map(\.recipient)) == [try token(1).hex, try token(2).hex])
    }

    @Test(arguments: StoreKind.allCases)
    func liveActivityTokensArePrunedByTheSameRule(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let store = fixture.store
        _ = try await store.upsertPushToStartToken(
            bundleID: bundleID, token: try token(10), environment: .production, user: "alice", attributesType: "Score",
            now: Clock.start)
        _ = try await store.upsertActivityToken(
            bundleID: bundleID, activityID: "game-1", token: try token(20), environment: .sandbox, user: "alice",
            now: Clock.start)

        let start = try await store.send(
            request(to: .pushToStart(users: ["alice"], attributesType: "Score"), pushType: .liveactivity))
        let update = try await store.send(request(to: .activity("game-1"), pushType: .liveactivity))
        let claim = try await store.claimDeliveries(limit: 10, claimer: "w", leaseMilliseconds: 1_000, now: Clock.start)
        let byNotification = Dictionary(grouping: claim.deliveries, by: \.notificationID)
        let startDelivery = try #require(byNotification[start]?.first)
        let updateDelivery = try #require(byNotification[update]?.first)
        #expect(
            startDelivery.kind == .pushToStart && updateDelivery.kind == .activity
                && updateDelivery.environment == .sandbox)
        try await store.recordOutcomes(
            [
                DeliveryOutcome(
                    deliveryID: startDelivery.id, result: .failed(reason: .unregistered, timestamp: Clock.start + 1)),
                DeliveryOutcome(
                    deliveryID: updateDelivery.id, result: .failed(reason: .badDeviceToken, timestamp: nil)),
            ], backoff: DeliveryBackoff(), now: Clock.start + 2)

        let reopened = try fixture.reopened()
        #expect(
            try await reopened.pushToStartTokens(bundleID: bundleID, user: "alice").map(\.status) == [.unregistered])
        #expect(try await reopened.activityToken(bundleID: bundleID, activityID: "game-1")?.status == .invalid)
        // Pruned tokens are not recipients.
        let again = try await reopened.send(
            request(to: .activity("game-1"), pushType: .liveactivity), now: Clock.start + 3)
        #expect(try await reopened.allDeliveries(again).isEmpty)
        #expect(try await reopened.notification(id: again)?.state == .done, "nothing to send is done at once")
    }
}
