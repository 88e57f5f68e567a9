import APNs
import Gateway
import Testing

/// `expandAndClaim` against every `GatewayStore`: a chunk of rows made already claimed, under the
/// same lease rules as `claimDeliveries`; and the protocol's default, which claims nothing.
@Suite(.timeLimit(.minutes(3)))
struct ExpandAndClaimTests {
    private let lease = 30_000

    private func created(_ store: any GatewayStore, devices: Int) async throws -> NotificationID {
        try await store.importDevices((1...devices).map { try registration($0, tags: ["t"]) }, now: Clock.start)
        return try await store.createNotification(request(to: .tags(["t"])), id: "n-1", now: Clock.start)
            .notification.id
    }

    @Test(arguments: StoreKind.allCases)
    func eachCallMakesOneChunkClaimedByTheClaimer(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let id = try await created(fixture.store, devices: 5)

        let first = try await fixture.store.expandAndClaim(
            id: id, chunkSize: 2, claimer: "a", leaseMilliseconds: lease, now: Clock.start)
        #expect(first.progress == ExpansionProgress(inserted: 2, chunks: 1, recipients: 2, finished: false))
        #expect(first.claim.deliveries.map(\.recipient) == [try token(1).hex, try token(2).hex])
        #expect(
            first.claim.deliveries.allSatisfy {
                $0.claimedBy == "a" && $0.claimedUntil == Clock.start + lease && $0.nextAttemptAt == Clock.start + lease
                    && $0.status == .pending && $0.attempts == 0 && $0.notificationID == id
            })
        #expect(first.claim.notifications[id]?.request.to == .tags(["t"]), "the notification comes with its rows")
        #expect(
            try await fixture.store.claimDeliveries(limit: 10, claimer: "b", leaseMilliseconds: lease, now: Clock.start)
                .deliveries.isEmpty, "rows made claimed are not claimed again under their lease")

        let second = try await fixture.store.expandAndClaim(
            id: id, chunkSize: 2, claimer: "a", leaseMilliseconds: lease, now: Clock.start)
        let third = try await fixture.store.expandAndClaim(
            id: id, chunkSize: 2, claimer: "a", leaseMilliseconds: lease, now: Clock.start)
        #expect(second.claim.deliveries.count == 2 && !second.progress.finished)
        #expect(third.progress == ExpansionProgress(inserted: 1, chunks: 1, recipients: 5, finished: true))
        let after = try await fixture.store.expandAndClaim(
            id: id, chunkSize: 2, claimer: "a", leaseMilliseconds: lease, now: Clock.start)
        #expect(after.progress.inserted == 0 && after.progress.finished && after.claim.deliveries.isEmpty)

        let claimed = (first.claim.deliveries + second.claim.deliveries + third.claim.deliveries)
        #expect(Set(claimed.map(\.apnsID)).count == 5)
        let counts = try await fixture.store.counts(id: id)
        #expect(counts.pending == 5 && counts.succeeded == 0)

        // What was claimed is what is recorded: each recipient once, with the apns-id it was sent with.
        try await fixture.store.recordOutcomes(
            claimed.map { DeliveryOutcome($0, result: .succeeded(apnsUniqueID: nil)) }, backoff: DeliveryBackoff(),
            now: Clock.start + 1)
        let recorded = try await fixture.reopened().allDeliveries(id)
        #expect(recorded.map(\.recipient) == claimed.map(\.recipient))
        #expect(recorded.map(\.apnsID) == claimed.map(\.apnsID))
        #expect(recorded.allSatisfy { $0.status == .succeeded && $0.attempts == 1 && $0.claimedBy == nil })
    }

    @Test(arguments: StoreKind.allCases)
    func aClaimTakenAgainAfterItsLeaseSendsOnlyWhatWasNotRecorded(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let id = try await created(fixture.store, devices: 4)
        let made = try await fixture.store.expandAndClaim(
            id: id, chunkSize: 10, claimer: "a", leaseMilliseconds: lease, now: Clock.start)
        try #require(made.claim.deliveries.count == 4)
        // The worker recorded two outcomes and died: a success and a retry.
        try await fixture.store.recordOutcomes(
            [
                DeliveryOutcome(made.claim.deliveries[0], result: .succeeded(apnsUniqueID: nil)),
                DeliveryOutcome(made.claim.deliveries[1], result: .retryable(reason: "ServiceUnavailable")),
            ], backoff: DeliveryBackoff(), now: Clock.start + 1)

        let store = try fixture.reopened()
        // Claimed until nothing is due: the retry (its backoff is shorter than the lease) and the two
        // never recorded come back, in one claim or two.
        var retaken = DeliveryClaim(deliveries: [], notifications: [:])
        while true {
            let claim = try await store.claimDeliveries(
                limit: 10, claimer: "c", leaseMilliseconds: lease, now: Clock.start + lease)
            if claim.deliveries.isEmpty { break }
            retaken.deliveries += claim.deliveries
        }
        let retry = made.claim.deliveries[1]
        #expect(Set(retaken.deliveries.map(\.recipient)) == Set(made.claim.deliveries.dropFirst().map(\.recipient)))
        #expect(
            Set(retaken.deliveries.map(\.apnsID)) == Set(made.claim.deliveries.dropFirst().map(\.apnsID)),
            "the same apns-ids")
        #expect(retaken.deliveries.first { $0.recipient == retry.recipient }?.attempts == 1)
        try await store.recordOutcomes(
            retaken.deliveries.map { DeliveryOutcome($0, result: .succeeded(apnsUniqueID: nil)) },
            backoff: DeliveryBackoff(), now: Clock.start + lease + 1)
        #expect(try await store.notification(id: id)?.state == .done)
        let rows = try await store.allDeliveries(id)
        #expect(rows.count == 4 && rows.allSatisfy { $0.status == .succeeded }, "one row each: \(rows)")
        #expect(Set(rows.map(\.apnsID)) == Set(made.claim.deliveries.map(\.apnsID)))
        #expect(try await store.pendingDeliveryCount() == 0)
        #expect(
            try await store.claimDeliveries(
                limit: 10, claimer: "c", leaseMilliseconds: lease, now: Clock.start + 10 * lease
            )
            .deliveries.isEmpty)
    }

    @Test func aTokenPrunedWhileItsChunkWaitedIsNotSentAndTheNotificationEnds() async throws {
        let fixture = try GatewayStoreFixture(.sqlite)
        defer { fixture.remove() }
        let id = try await created(fixture.store, devices: 3)
        let made = try await fixture.store.expandAndClaim(
            id: id, chunkSize: 10, claimer: "a", leaseMilliseconds: lease, now: Clock.start)
        try #require(made.claim.deliveries.count == 3)
        #expect(
            try await fixture.store.prune(
                .invalidateForTopic(statusReason: "DeviceTokenNotForTopic"), bundleID: bundleID, kind: .device,
                token: try token(2).hex))
        let retaken = try await fixture.store.claimDeliveries(
            limit: 10, claimer: "c", leaseMilliseconds: lease, now: Clock.start + lease)
        #expect(retaken.deliveries.map(\.recipient) == [try token(1).hex, try token(3).hex])
        try await fixture.store.recordOutcomes(
            retaken.deliveries.map { DeliveryOutcome($0, result: .succeeded(apnsUniqueID: nil)) },
            backoff: DeliveryBackoff(), now: Clock.start + lease + 1)
        let counts = try await fixture.store.counts(id: id)
        #expect(counts.succeeded == 2 && counts.cancelled == 1 && counts.pending == 0, "\(counts)")
        #expect(try await fixture.store.notification(id: id)?.state == .done)
    }

    @Test(arguments: StoreKind.allCases)
    func cancellingStopsClaimedWorkAndIgnoresItsLateOutcomes(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let id = try await created(fixture.store, devices: 3)
        let made = try await fixture.store.expandAndClaim(
            id: id, chunkSize: 10, claimer: "a", leaseMilliseconds: lease, now: Clock.start)
        #expect(try await fixture.store.pendingDeliveryCount() == 3)
        let cancelled = try await fixture.store.cancelNotification(id: id, now: Clock.start + 1)
        #expect(cancelled.state == .cancelled)
        try await fixture.store.recordOutcomes(
            made.claim.deliveries.map { DeliveryOutcome($0, result: .succeeded(apnsUniqueID: nil)) },
            backoff: DeliveryBackoff(), now: Clock.start + 2)
        let counts = try await fixture.store.counts(id: id)
        #expect(counts.cancelled == 3 && counts.pending == 0 && counts.succeeded == 0, "\(counts)")
        #expect(try await fixture.store.pendingDeliveryCount() == 0)
        #expect(
            try await fixture.store.claimDeliveries(
                limit: 10, claimer: "c", leaseMilliseconds: lease, now: Clock.start + 2 * lease
            ).deliveries.isEmpty, "nothing comes back after the lease")
    }

    @Test(arguments: StoreKind.allCases)
    func everyRowGetsItsOwnVersion4APNsID(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let id = try await created(fixture.store, devices: 300)
        var made: [Delivery] = []
        while true {
            let chunk = try await fixture.store.expandAndClaim(
                id: id, chunkSize: 128, claimer: "a", leaseMilliseconds: lease, now: Clock.start)
            made += chunk.claim.deliveries
            if chunk.progress.finished { break }
        }
        #expect(made.count == 300 && Set(made.map(\.apnsID)).count == 300)
        for apnsID in made.map(\.apnsID.value) {
            let characters = Array(apnsID)
            // 8-4-4-4-12 lowercase hex, version 4, RFC 4122 variant.
            #expect(characters.count == 36 && [8, 13, 18, 23].allSatisfy { characters[$0] == "-" })
            #expect(
                characters.enumerated().allSatisfy { [8, 13, 18, 23].contains($0) || "0123456789abcdef".contains($1) })
            #expect(characters[14] == "4" && "89ab".contains(characters[19]), "\(apnsID)")
        }
        // The expansion's cursor moved by chunks: every device once, in registration order.
        let tokens = try (1...300).map { try token($0).hex }
        #expect(made.map(\.recipient) == tokens)
    }

    @Test(arguments: StoreKind.allCases)
    func rowsOfADeadClaimerComeBackWithTheirApnsIDsWhenTheLeaseRunsOut(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let id = try await created(fixture.store, devices: 3)
        let made = try await fixture.store.expandAndClaim(
            id: id, chunkSize: 10, claimer: "a", leaseMilliseconds: lease, now: Clock.start)
        #expect(made.progress.finished && made.claim.deliveries.count == 3)

        let store = try fixture.reopened()
        #expect(
            try await store.claimDeliveries(
                limit: 10, claimer: "c", leaseMilliseconds: lease, now: Clock.start + lease - 1
            )
            .deliveries.isEmpty)
        let retaken = try await store.claimDeliveries(
            limit: 10, claimer: "c", leaseMilliseconds: lease, now: Clock.start + lease)
        #expect(retaken.deliveries.map(\.id) == made.claim.deliveries.map(\.id))
        #expect(retaken.deliveries.map(\.apnsID) == made.claim.deliveries.map(\.apnsID))
        #expect(retaken.deliveries.allSatisfy { $0.claimedBy == "c" && $0.attempts == 0 })
    }

    @Test(arguments: StoreKind.allCases)
    func outcomesOfClaimedRowsFinishTheNotification(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let id = try await created(fixture.store, devices: 3)
        let made = try await fixture.store.expandAndClaim(
            id: id, chunkSize: 10, claimer: "a", leaseMilliseconds: lease, now: Clock.start)
        try await fixture.store.recordOutcomes(
            made.claim.deliveries.map { DeliveryOutcome($0, result: .succeeded(apnsUniqueID: nil)) },
            backoff: DeliveryBackoff(), now: Clock.start + 10)
        let notification = try await fixture.reopened().notification(id: id)
        #expect(notification?.state == .done)
        let counts = try await fixture.store.counts(id: id)
        #expect(counts.succeeded == 3 && counts.pending == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func aCancelledNotificationMakesNoRows(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let id = try await created(fixture.store, devices: 3)
        _ = try await fixture.store.cancelNotification(id: id, now: Clock.start)
        let made = try await fixture.store.expandAndClaim(
            id: id, chunkSize: 10, claimer: "a", leaseMilliseconds: lease, now: Clock.start)
        #expect(made.progress.finished && made.progress.inserted == 0 && made.claim.deliveries.isEmpty)
        #expect(try await fixture.store.allDeliveries(id).isEmpty)
    }

    @Test
    func theDefaultImplementationMakesDueRowsThatClaimDeliveriesTakes() async throws {
        // HeldDeviceStore forwards everything but `expandAndClaim`: it gets the protocol's default.
        let store = HeldDeviceStore()
        let id = try await created(store, devices: 3)
        let made = try await store.expandAndClaim(
            id: id, chunkSize: 2, claimer: "a", leaseMilliseconds: lease, now: Clock.start)
        #expect(made.progress == ExpansionProgress(inserted: 2, chunks: 1, recipients: 2, finished: false))
        #expect(made.claim.deliveries.isEmpty)
        let claim = try await store.claimDeliveries(limit: 10, claimer: "a", leaseMilliseconds: lease, now: Clock.start)
        #expect(claim.deliveries.map(\.recipient) == [try token(1).hex, try token(2).hex])
    }
}
