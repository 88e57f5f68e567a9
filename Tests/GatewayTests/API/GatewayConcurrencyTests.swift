import APNs
import Gateway
import Testing

/// Store calls run off the event loop: while one request waits on a slow store, the same loop
/// (the gateway has one here) answers others, over both protocols.
@Suite(.timeLimit(.minutes(1)))
struct GatewayConcurrencyTests {
    @Test func aSlowStoreCallHoldsNoOtherRequest() async throws {
        let store = HeldDeviceStore()
        try await GatewayAPIFixture.with(.memory, store: store) { gateway in
            let path = "/v1/apps/\(GatewayAPIFixture.app)/devices/" + String(repeating: "cd", count: 32)
            let slow = Task { try await gateway.request("PUT", path, key: gateway.register, over: .http1) }
            var holds = store.holds.makeAsyncIterator()
            _ = await holds.next()

            let health = try await gateway.request("GET", "/healthz", key: nil, over: .http2)
            #expect(health.status == 200)
            let read = try await gateway.request("GET", path, key: gateway.send, over: .http2)
            #expect(read.status == 404 && read.errorCode == "unknown-device", "\(read.output)")
            let list = try await gateway.request(
                "GET", "/v1/apps/\(GatewayAPIFixture.app)/users/u/devices", key: gateway.admin, over: .http1)
            #expect(list.status == 200)

            store.release()
            let put = try await slow.value
            #expect(put.status == 200 && put.json?["token"]?.stringValue == String(repeating: "cd", count: 32))
        }
    }
}
