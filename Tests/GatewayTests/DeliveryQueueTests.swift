import APNs
import Gateway
import Testing

/// The delivery queue against every `GatewayStore`: claims under a lease, outcomes, counts, states.
// Each SQLite call suspends and resumes through the shared cooperative pool: alone these tests
// take well under a second, but inside a full run on a loaded 2-core machine the waits for a pool
// thread add up past a minute. The limit is there to catch a hang, not to time the machine.
@Suite(.timeLimit(.minutes(3)))
struct DeliveryQueueTests {
    private func sendToThree(_ store: any GatewayStore) async throws -> NotificationID {
        try await store.importDevices((1...3).map { try registration($0, tags: ["t"]) }, now: Clock.start)
        return try await store.send(request(to: .tags(["t"])))
    }

    @Test(arguments: StoreKind.allCases)
    func aClaimedDeliveryIsNotClaimedAgainUntilItsLeaseRunsOut(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let id = try await sendToThree(fixture.store)
        let original = try await fixture.store.allDeliveries(id)
        let lease = 30_000

        let first = try await fixture.store.claimDeliveries(
            limit: 2, claimer: "a", leaseMilliseconds: lease, now: Clock.start)
        #expect(first.deliveries.map(\.id) == Array(original.prefix(2)).map(\.id))
        #expect(first.deliveries.allSatisfy { $0.claimedBy == "a" && $0.claimedUntil == Clock.start + lease })
        #expect(first.notifications[id]?.request.to == .tags(["t"]), "the notification comes with its deliveries")

        let second = try await fixture.store.claimDeliveries(
            limit: 10, claimer: "b", leaseMilliseconds: lease, now: Clock.start)
        #expect(second.deliveries.map(\.id) == [original[2].id], "only the unclaimed one")
        let store = try fixture.reopened()
        #expect(
            try await store.claimDeliveries(
                limit: 10, claimer: "b", leaseMilliseconds: lease, now: Clock.start + lease - 1
            )
            .deliveries.isEmpty, "every lease still runs")

        // Claimer "a" died: its rows come back once its lease has run out, with their apns-ids.
        let retaken = try await store.claimDeliveries(
            limit: 2, claimer: "c", leaseMilliseconds: lease, now: Clock.start + lease)
        #expect(retaken.deliveries.map(\.id) == first.deliveries.map(\.id))
        #expect(retaken.deliveries.map(\.apnsID) == Array(original.prefix(2)).map(\.apnsID))
        #expect(retaken.deliveries.allSatisfy { $0.claimedBy == "c" && $0.attempts == 0 })
    }

    @Test(arguments: StoreKind.allCases)
    func outcomesEndDeliveriesAndTheNotificationIsDoneWhenNothingIsPending(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let id = try await sendToThree(fixture.store)
        let backoff = DeliveryBackoff(maximumAttempts: 2, base: 1_000, maximum: 60_000)
        let claim = try await fixture.store.claimDeliveries(
            limit: 3, claimer: "w", leaseMilliseconds: 10_000, now: Clock.start)
        let ids = claim.deliveries.map(\.id)
        try await fixture.store.recordOutcomes(
            [
                DeliveryOutcome(deliveryID: ids[0], result: .succeeded(apnsUniqueID: "unique-1")),
                DeliveryOutcome(deliveryID: ids[1], result: .failed(reason: .payloadTooLarge, timestamp: nil)),
                DeliveryOutcome(deliveryID: ids[2], result: .retryable(reason: "ServiceUnavailable")),
            ], backoff: backoff, now: Clock.start + 100)
        var deliveries = try await fixture.reopened().allDeliveries(id)
        #expect(
            deliveries[0].status == .succeeded && deliveries[0].apnsUniqueID == "unique-1"
                && deliveries[0].attempts == 1)
        #expect(deliveries[1].status == .failed && deliveries[1].reason == "PayloadTooLarge")
        #expect(deliveries[2].status == .pending && deliveries[2].attempts == 1 && deliveries[2].claimedBy == nil)
        #expect(
            deliveries[2].nextAttemptAt == Clock.start + 100 + 1_000 && deliveries[2].lastAttemptAt == Clock.start + 100
        )
        #expect(try await fixture.store.notification(id: id)?.state == .sending)

        // Not due before its backoff; due after, and its last attempt (the cap) fails it.
        #expect(
            try await fixture.store.claimDeliveries(
                limit: 3, claimer: "w", leaseMilliseconds: 1, now: Clock.start + 1_099
            )
            .deliveries.isEmpty)
        let retry = try await fixture.store.claimDeliveries(
            limit: 3, claimer: "w", leaseMilliseconds: 1, now: Clock.start + 1_100)
        #expect(retry.deliveries.map(\.id) == [ids[2]] && retry.deliveries[0].apnsID == deliveries[2].apnsID)
        try await fixture.store.recordOutcomes(
            [DeliveryOutcome(deliveryID: ids[2], result: .retryable(reason: "ServiceUnavailable"))], backoff: backoff,
            now: Clock.start + 1_100)
        deliveries = try await fixture.store.allDeliveries(id)
        #expect(
            deliveries[2].status == .failed && deliveries[2].attempts == 2
                && deliveries[2].reason == "ServiceUnavailable")

        let store = try fixture.reopened()
        #expect(try await store.notification(id: id)?.state == .done)
        #expect(
            try await store.counts(id: id)
                == NotificationCounts(
                    succeeded: 1, failed: 2, byReason: ["PayloadTooLarge": 1, "ServiceUnavailable": 1]))
        // A late outcome for a finished delivery changes nothing.
        try await store.recordOutcomes(
            [DeliveryOutcome(deliveryID: ids[1], result: .succeeded(apnsUniqueID: nil))], backoff: backoff,
            now: Clock.start + 2_000)
        #expect(try await store.allDeliveries(id)[1].status == .failed)
        #expect(try await store.counts(id: id).succeeded == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func concurrentClaimersOnTwoConnectionsNeverTakeTheSameRow(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        try await fixture.store.importDevices((1...1_000).map { try registration($0, tags: ["t"]) }, now: Clock.start)
        let id = try await fixture.store.send(request(to: .tags(["t"])))
        // Two connections to one file (SQLite), as two gateway processes would have; four claimers.
        let stores = [fixture.store, try fixture.reopened()]
        let claimed = try await withThrowingTaskGroup(of: [Int].self) { group in
            for claimer in 0..<4 {
                let store = stores[claimer % 2]
                group.addTask {
                    var ids: [Int] = []
                    while true {
                        let claim = try await store.claimDeliveries(
                            limit: 25, claimer: "w\(claimer)", leaseMilliseconds: 60_000, now: Clock.start)
                        if claim.deliveries.isEmpty { return ids }
                        ids += claim.deliveries.map(\.id)
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let all = try await fixture.store.allDeliveries(id).map(\.id)
        #expect(claimed.count == 1_000 && Set(claimed) == Set(all), "each row claimed once")
    }

    @Test(arguments: StoreKind.allCases)
    func anUnknownNotificationIsNamed(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        await #expect(throws: GatewayStoreError.unknownNotification("nope")) {
            try await fixture.store.expandFully(id: "nope", now: Clock.start)
        }
        await #expect(throws: GatewayStoreError.unknownNotification("nope")) {
            try await fixture.store.counts(id: "nope")
        }
        #expect(try await fixture.store.notification(id: "nope") == nil)
        #expect(try await fixture.store.deliveries(notificationID: "nope", after: nil, limit: 10).deliveries.isEmpty)
    }

    @Test func backoffDoublesUpToItsCeilingAndStopsAtTheCap() {
        let backoff = DeliveryBackoff(maximumAttempts: 5, base: 1_000, maximum: 5_000)
        #expect((1...5).map { backoff.delay(afterAttempts: $0) } == [1_000, 2_000, 4_000, 5_000, nil])
    }
}
