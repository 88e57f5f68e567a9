import APNs
import Gateway
import Testing

/// The store calls the engine added, against every `GatewayStore`: the queue's depth, the tokens
/// pruned since expansion, and the pruned count `recordOutcomes` returns.
@Suite(.timeLimit(.minutes(3)))
struct DeliveryStoreQueriesTests {
    @Test(arguments: StoreKind.allCases)
    func pendingDeliveryCountFollowsTheQueue(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let store = fixture.store
        #expect(try await store.pendingDeliveryCount() == 0)
        let id = try await store.send(request(to: .tokens([try token(1), try token(2), try token(3)])))
        #expect(try await store.pendingDeliveryCount() == 3)
        let claim = try await store.claimDeliveries(limit: 2, claimer: "w", leaseMilliseconds: 1_000, now: Clock.start)
        #expect(try await store.pendingDeliveryCount() == 3, "claimed rows are still pending")
        try await store.recordOutcomes(
            [
                DeliveryOutcome(deliveryID: claim.deliveries[0].id, result: .succeeded(apnsUniqueID: nil)),
                DeliveryOutcome(deliveryID: claim.deliveries[1].id, result: .retryable(reason: "ServiceUnavailable")),
            ], backoff: DeliveryBackoff(), now: Clock.start)
        #expect(try await store.pendingDeliveryCount() == 2, "a retry waiting for its backoff is pending")
        _ = try await store.cancelNotification(id: id, now: Clock.start)
        #expect(try await fixture.reopened().pendingDeliveryCount() == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func inactiveTokensNamesThePrunedOnesOfEachKind(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let store = fixture.store
        for n in 1...3 { _ = try await store.upsertDevice(try registration(n), now: Clock.start) }
        _ = try await store.prune(
            .invalidateForTopic(statusReason: "x"), bundleID: bundleID, kind: .device, token: try token(2).hex)
        _ = try await store.upsertActivityToken(
            bundleID: bundleID, activityID: "a", token: try token(4), environment: .production, user: nil,
            now: Clock.start)
        _ = try await store.upsertPushToStartToken(
            bundleID: bundleID, token: try token(5), environment: .production, user: "u", attributesType: "T",
            now: Clock.start)
        _ = try await store.prune(
            .unregister(timestamp: Clock.start + 1, statusReason: "x"), bundleID: bundleID, kind: .activity,
            token: try token(4).hex)
        _ = try await store.prune(
            .unregister(timestamp: Clock.start + 1, statusReason: "x"), bundleID: bundleID, kind: .pushToStart,
            token: try token(5).hex)
        let unknown = try token(9).hex
        let devices = [try token(1).hex, try token(2).hex, try token(3).hex, unknown]
        #expect(
            try await store.inactiveTokens(bundleID: bundleID, kind: .device, tokens: devices) == [try token(2).hex])
        #expect(try await store.inactiveTokens(bundleID: "com.example.other", kind: .device, tokens: devices) == [])
        #expect(
            try await store.inactiveTokens(bundleID: bundleID, kind: .activity, tokens: [try token(4).hex, unknown])
                == [try token(4).hex])
        #expect(
            try await store.inactiveTokens(bundleID: bundleID, kind: .pushToStart, tokens: [try token(5).hex])
                == [try token(5).hex])
        #expect(try await store.inactiveTokens(bundleID: bundleID, kind: .device, tokens: []) == [])
        _ = try await store.upsertDevice(try registration(2), now: Clock.start + 5)
        #expect(try await store.inactiveTokens(bundleID: bundleID, kind: .device, tokens: devices) == [], "revived")
    }

    @Test(arguments: StoreKind.allCases)
    func recordOutcomesCountsTheTokensItPruned(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let store = fixture.store
        for n in 1...3 { _ = try await store.upsertDevice(try registration(n), now: Clock.start) }
        _ = try await store.send(request(to: .tokens([try token(1), try token(2), try token(3)])))
        let claim = try await store.claimDeliveries(limit: 3, claimer: "w", leaseMilliseconds: 1_000, now: Clock.start)
        let pruned = try await store.recordOutcomes(
            [
                DeliveryOutcome(
                    deliveryID: claim.deliveries[0].id,
                    result: .failed(reason: .unregistered, timestamp: Clock.start + 10)),
                // Uploaded after APNs's timestamp: not pruned.
                DeliveryOutcome(
                    deliveryID: claim.deliveries[1].id,
                    result: .failed(reason: .unregistered, timestamp: Clock.start - 10)),
                DeliveryOutcome(
                    deliveryID: claim.deliveries[2].id, result: .failed(reason: .badDeviceToken, timestamp: nil)),
            ], backoff: DeliveryBackoff(), now: Clock.start + 20)
        #expect(pruned == 2)
    }
}
