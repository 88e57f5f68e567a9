import APNs
import Gateway
import Testing

/// `GET /metrics` through a real HTTP client: admin keys for every app only.
@Suite(.timeLimit(.minutes(1)))
struct GatewayMetricsRouteTests {
    @Test(arguments: WireProtocol.allCases)
    func anAdminKeyReadsTheMetricsOthersAreRefused(_ wire: WireProtocol) async throws {
        try await GatewayAPIFixture.with(.memory) { gateway in
            let metrics = gateway.server.configuration.metrics
            metrics.recordSend(.succeeded, reason: nil, microseconds: 1_000)
            let answer = try await gateway.request("GET", "/metrics", key: gateway.admin, over: wire)
            #expect(answer.status == 200)
            #expect(answer.headers["content-type"] == GatewayMetrics.prometheusContentType)
            #expect(answer.bodySize == metrics.prometheusText().utf8.count)

            let send = try await gateway.request("GET", "/metrics", key: gateway.send, over: wire)
            #expect(send.status == 403 && send.errorCode == "forbidden")
            let appAdmin = try await gateway.store.createAPIKey(
                name: "app admin", scope: .admin, bundleID: GatewayAPIFixture.app, now: Clock.start)
            let forOneApp = try await gateway.request("GET", "/metrics", key: appAdmin.secret, over: wire)
            #expect(forOneApp.status == 403 && forOneApp.errorCode == "forbidden")
            let none = try await gateway.request("GET", "/metrics", key: nil, over: wire)
            #expect(none.status == 401)
        }
    }
}
