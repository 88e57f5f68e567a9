import APNs
import Gateway
import Testing

/// `deliveries(bundleID:kind:recipient:before:limit:)`, a device's history, against every
/// `GatewayStore`: newest first across notifications, page by page, one app's and one kind's only.
@Suite(.timeLimit(.minutes(3)))
struct DeliveryHistoryStoreTests {
    @Test(arguments: StoreKind.allCases)
    func aTokensDeliveriesNewestFirstPageByPage(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let store = fixture.store
        let one = try token(1)
        let first = try await store.send(request(to: .tokens([one, try token(2)])), id: "n1")
        _ = try await store.send(request(to: .tokens([try token(2)])), id: "n2")
        let third = try await store.send(request(to: .tokens([try token(3), one])), id: "n3")
        var other = request(to: .tokens([one]))
        other.bundleID = "com.example.other"
        _ = try await store.send(other, id: "n4")
        let fourth = try await store.send(request(to: .tokens([one])), id: "n5")

        let claim = try await store.claimDeliveries(
            limit: 100, claimer: "w", leaseMilliseconds: 1_000, now: Clock.start)
        let firstToOne = try #require(claim.deliveries.first { $0.notificationID == first && $0.recipient == one.hex })
        try await store.recordOutcomes(
            [DeliveryOutcome(deliveryID: firstToOne.id, result: .failed(reason: .badDeviceToken, timestamp: nil))],
            backoff: DeliveryBackoff(), now: Clock.start)

        var seen: [Delivery] = []
        var cursor: Int?
        var pages = 0
        repeat {
            let page = try await fixture.reopened().deliveries(
                bundleID: bundleID, kind: .device, recipient: one.hex, before: cursor, limit: 2)
            #expect(page.deliveries.count <= 2)
            seen += page.deliveries
            cursor = page.nextCursor
            pages += 1
        } while cursor != nil && pages < 10
        #expect(seen.map(\.notificationID) == [fourth, third, first], "newest first, the other app's left out")
        #expect(seen.allSatisfy { $0.recipient == one.hex && $0.kind == .device })
        #expect(pages == 2)
        #expect(seen.last?.status == .failed)
        #expect(seen.last?.reason == "BadDeviceToken")
        #expect(seen.first?.status == .pending)

        let otherApp = try await store.deliveries(
            bundleID: "com.example.other", kind: .device, recipient: one.hex, before: nil, limit: 10)
        #expect(otherApp.deliveries.map(\.notificationID) == ["n4"])
        #expect(otherApp.nextCursor == nil)
        let asActivity = try await store.deliveries(
            bundleID: bundleID, kind: .activity, recipient: one.hex, before: nil, limit: 10)
        #expect(asActivity.deliveries.isEmpty, "a device's history holds no other kind's rows")
        let unknown = try await store.deliveries(
            bundleID: bundleID, kind: .device, recipient: try token(9).hex, before: nil, limit: 10)
        #expect(unknown == DeliveryPage(deliveries: [], nextCursor: nil))
    }
}
