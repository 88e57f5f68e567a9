import APNs
import Gateway
import Testing

/// `GET /v1/apps/{bundle-id}/devices/{token}/deliveries`: a device's history across notifications,
/// newest first, page by page, over HTTP/1.1 and HTTP/2, on every store; its JSON is
/// `gateway-deliveries`.
@Suite(.timeLimit(.minutes(3)))
struct GatewayDeviceHistoryRouteTests {
    @Test(arguments: StoreKind.allCases, WireProtocol.allCases)
    func aDevicesDeliveriesNewestFirstPageByPage(_ kind: StoreKind, _ wire: WireProtocol) async throws {
        try await GatewayAPIFixture.with(kind) { gateway in
            let store = gateway.store
            let one = try token(1)
            let first = try await store.send(request(to: .tokens([one, try token(2)])), id: "n1")
            _ = try await store.send(request(to: .tokens([try token(2)])), id: "n2")
            let second = try await store.send(request(to: .tokens([one])), id: "n3")
            let third = try await store.send(request(to: .tokens([one])), id: "n4")
            let claim = try await store.claimDeliveries(
                limit: 100, claimer: "w", leaseMilliseconds: 1_000, now: Clock.start)
            let outcomes = claim.deliveries.filter { $0.recipient == one.hex && $0.notificationID != third }.map {
                DeliveryOutcome(
                    deliveryID: $0.id,
                    result: $0.notificationID == first
                        ? .succeeded(apnsUniqueID: nil) : .failed(reason: .unregistered, timestamp: Clock.start))
            }
            try await store.recordOutcomes(outcomes, backoff: DeliveryBackoff(), now: Clock.start + 5)

            let path = "/v1/apps/\(GatewayAPIFixture.app)/devices/\(one.hex)/deliveries"
            var seen: [JSONValue] = []
            var answers: [JSONValue] = []
            var cursor: String?
            var pages = 0
            repeat {
                let query = "?limit=2" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await gateway.request("GET", path + query, key: gateway.send, over: wire)
                #expect(page.status == 200, "\(page.output)")
                seen += page.json?["deliveries"]?.arrayValue ?? []
                if let json = page.json { answers.append(json) }
                cursor = page.json?["next-cursor"]?.stringValue
                pages += 1
            } while cursor != nil && pages < 10
            #expect(pages == 2)
            #expect(seen.map { $0["notification-id"]?.stringValue } == [third, second, first])
            #expect(seen.map { $0["status"]?.stringValue } == ["pending", "failed", "succeeded"])
            #expect(seen[1]["reason"]?.stringValue == "Unregistered")
            #expect(seen[2]["last-attempt-at"]?.intValue == Clock.start + 5)
            #expect(seen.allSatisfy { $0["token"]?.stringValue == one.hex })
            GatewayJSONFieldsTests.check(
                "gateway-deliveries", answers, against: try GatewayJSONFieldsTests.documented())

            let none = try await gateway.request(
                "GET", "/v1/apps/\(GatewayAPIFixture.app)/devices/\(try token(9).hex)/deliveries", key: gateway.send,
                over: wire)
            #expect(none.status == 200 && none.json == ["deliveries": [], "next-cursor": .null], "\(none.output)")
            let badToken = try await gateway.request(
                "GET", "/v1/apps/\(GatewayAPIFixture.app)/devices/xyz/deliveries", key: gateway.send, over: wire)
            #expect(badToken.status == 400 && badToken.errorField == "token", "\(badToken.output)")
            let badCursor = try await gateway.request("GET", path + "?cursor=-1", key: gateway.send, over: wire)
            #expect(badCursor.status == 400 && badCursor.errorField == "cursor")
            let otherApp = try await gateway.request("GET", path, key: gateway.otherAppSend, over: wire)
            #expect(otherApp.status == 403 && otherApp.errorCode == "forbidden")
            let register = try await gateway.request("GET", path, key: gateway.register, over: wire)
            #expect(register.status == 403)
        }
    }
}
