import APNs
import Gateway
import Testing

/// `renewClaims` against every `GatewayStore`: a batch still being sent keeps its deliveries past
/// its first lease (no other claimer takes them), and its outcomes under the renewed lease are
/// recorded; a delivery claimed again by another after its lease ran out is not renewed.
@Suite(.timeLimit(.minutes(3)))
struct LeaseRenewalTests {
    private let lease = 30_000

    @Test(arguments: StoreKind.allCases)
    func aRenewedClaimIsNotTakenByAnotherAndItsOutcomesAreRecorded(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let store = fixture.store
        try await store.importDevices((1...4).map { try registration($0, tags: ["t"]) }, now: Clock.start)
        let id = try await store.createNotification(request(to: .tags(["t"])), id: "n-1", now: Clock.start)
            .notification.id
        // Two chunks claimed by "a": the first it renews, the second it lets run out.
        let kept = try await store.expandAndClaim(
            id: id, chunkSize: 2, claimer: "a", leaseMilliseconds: lease, now: Clock.start
        ).claim.deliveries
        let lapsed = try await store.expandAndClaim(
            id: id, chunkSize: 2, claimer: "a", leaseMilliseconds: lease, now: Clock.start
        ).claim.deliveries
        #expect(kept.count == 2 && lapsed.count == 2)

        let until = Clock.start + 3 * lease
        let renewed = try await store.renewClaims(kept, claimer: "a", until: until)
        #expect(renewed == Set(kept.map(\.id)))
        #expect(try await store.renewClaims(kept, claimer: "b", until: until).isEmpty, "only the claimer renews")

        // Past the first lease: "b" takes the chunk that ran out, not the renewed one.
        let later = Clock.start + lease + 1
        let taken = try await store.claimDeliveries(limit: 10, claimer: "b", leaseMilliseconds: lease, now: later)
        #expect(Set(taken.deliveries.map(\.recipient)) == Set(lapsed.map(\.recipient)))
        #expect(
            try await store.renewClaims(lapsed, claimer: "a", until: until).isEmpty,
            "a lease another claimer holds now is not renewed")

        // The renewed batch's outcomes, under the renewed lease, are recorded.
        let outcomes = kept.map { delivery in
            var sent = delivery
            sent.claimedUntil = until
            return DeliveryOutcome(sent, result: .succeeded(apnsUniqueID: nil))
        }
        try await store.recordOutcomes(outcomes, backoff: DeliveryBackoff(), now: later)
        let counts = try await store.counts(id: id)
        #expect(counts.succeeded == 2 && counts.pending == 2, "\(counts)")
        let rows = try await fixture.reopened().allDeliveries(id)
        #expect(rows.filter { $0.status == .succeeded }.map(\.recipient) == kept.map(\.recipient))
    }
}
