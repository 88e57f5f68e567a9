import APNs
import APNsClient
import HeraldTestSupport
import Testing

/// No request waits for the whole run. One connection, 1,000 streams (nghttpd `-m 1000`), 1 KB
/// bodies: a thousand bodies in flight are far more than the connection's 64 KB send window, so
/// bodies wait for it. nghttp2 sent the one that met a nearly closed window in part, then scheduled
/// its rest behind every newer stream: it left only when the run ended (max latency = the run).
@Suite(.timeLimit(.minutes(1)))
struct NoStarvationTests {
    @Test func noRequestWaitsForTheWholeRun() async throws {
        let server = try Nghttpd(extraArguments: ["--max-concurrent-streams=1000"])
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(server.port)")
        let client = APNsClient(
            endpoint: endpoint, credentials: .certificate,
            transport: try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint)), retryPolicy: .none
        )
        let note = APNs.Notification(
            token: try DeviceToken(hex: Nghttpd.token), topic: try Topic("com.example.app"),
            payload: Payload.alert(body: String(repeating: "x", count: 1000)))
        var remaining = 20_000
        let started = ContinuousClock.now
        await client.sendEach(concurrency: 1000) {
            guard remaining > 0 else { return nil }
            remaining -= 1
            return note
        } onResult: { _, _ in
        }
        let run = (ContinuousClock.now - started) / .microseconds(1)
        let metrics = client.metrics
        #expect(metrics.succeeded == 20_000)
        let slowest = Double(metrics.latency.maximumMicroseconds)
        #expect(slowest < run / 3, "slowest request \(slowest / 1000) ms in a \(run / 1000) ms run")
        await client.shutdown()
    }
}
