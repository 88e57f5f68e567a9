import APNs
import Gateway
import Testing

/// The metrics' last hour (`GatewayMetricsHistory`): a bounded ring of per-interval differences,
/// and `GET /v1/metrics/history` serving it to admin keys.
@Suite(.timeLimit(.minutes(1)))
struct GatewayMetricsHistoryTests {
    @Test func theRingKeepsTheNewestSamplesUpToItsCapacity() {
        let history = GatewayMetricsHistory(interval: 10_000, capacity: 3)
        let metrics = GatewayMetrics(history: history)
        history.sample(metrics, now: Clock.start)
        #expect(history.samples.isEmpty, "the first call only takes the reading to compare with")
        for step in 1...7 {
            for _ in 0..<step { metrics.recordSend(.succeeded, reason: nil, microseconds: 2_000) }
            history.sample(metrics, now: Clock.start + step * 10_000)
            #expect(history.samples.count == min(step, 3))
        }
        let samples = history.samples
        #expect(samples.map(\.at) == [5, 6, 7].map { Clock.start + $0 * 10_000 }, "oldest first, the oldest dropped")
        #expect(samples.map { $0.sends[.succeeded] } == [5, 6, 7], "each sample counts its own interval")
        #expect(samples.map(\.sendsPerSecond) == [0.5, 0.6, 0.7])
        #expect(samples.allSatisfy { $0.milliseconds == 10_000 && $0.failures.isEmpty })
    }

    @Test func aSampleHasItsIntervalsFailuresAndLatency() throws {
        let history = GatewayMetricsHistory(interval: 10_000, capacity: 10)
        let metrics = GatewayMetrics(history: history)
        metrics.recordSend(.failed, reason: "BadDeviceToken", microseconds: 1_000)
        history.sample(metrics, now: Clock.start)
        for _ in 0..<90 { metrics.recordSend(.succeeded, reason: nil, microseconds: 4_000) }
        for _ in 0..<10 { metrics.recordSend(.failed, reason: "Unregistered", microseconds: 40_000) }
        metrics.recordSend(.retryable, reason: "TooManyRequests", microseconds: nil)
        metrics.setQueueDepth(12)
        history.sample(metrics, now: Clock.start + 20_000)
        let sample = try #require(history.samples.last)
        #expect(sample.sends == [.succeeded: 90, .failed: 10, .retryable: 1])
        #expect(sample.failures == ["Unregistered": 10, "TooManyRequests": 1], "the sample before's are not counted")
        #expect(sample.sendsPerSecond == 101.0 / 20)
        #expect(sample.queueDepth == 12)
        // 90 answers in (2.5 ms, 5 ms], 10 in (25 ms, 50 ms]: p50 and p90 fall in the first bucket.
        #expect(try #require(sample.p50) > 0.0025 && sample.p50! <= 0.005)
        #expect(sample.p90 == 0.005)
        #expect(try #require(sample.p99) > 0.025 && sample.p99! <= 0.05)

        history.sample(metrics, now: Clock.start + 30_000)
        let idle = try #require(history.samples.last)
        #expect(idle.sends.isEmpty && idle.p50 == nil && idle.sendsPerSecond == 0)
    }

    @Test(arguments: WireProtocol.allCases)
    func anAdminKeyReadsTheHistory(_ wire: WireProtocol) async throws {
        // An interval of an hour: the server's own sampler stays out of the test's samples.
        let metrics = GatewayMetrics(history: GatewayMetricsHistory(interval: 3_600_000, capacity: 5))
        try await GatewayAPIFixture.with(.memory, configure: { $0.metrics = metrics }) { gateway in
            metrics.recordSend(.succeeded, reason: nil, microseconds: 3_000)
            let running = try await gateway.request("GET", "/v1/metrics/history", key: gateway.admin, over: wire)
            #expect(running.status == 200, "\(running.output)")
            #expect(running.json?["interval-seconds"]?.intValue == 3_600)
            let only = try #require(running.json?["samples"]?.arrayValue, "\(running.output)")
            #expect(only.count == 1 && only[0]["partial"] == true, "before an interval has passed, the running one")
            #expect(only.first?["sends"]?["succeeded"]?.intValue == 1)
            metrics.recordSend(.failed, reason: "Unregistered", microseconds: 3_000)
            // Sampled at a time after any real clock reading: the running interval then has nothing.
            metrics.history.sample(metrics, now: Int(Int64.max / 2))
            let answer = try await gateway.request("GET", "/v1/metrics/history", key: gateway.admin, over: wire)
            #expect(answer.status == 200, "\(answer.output)")
            let samples = try #require(answer.json?["samples"]?.arrayValue, "\(answer.output)")
            #expect(samples.map { $0["partial"] } == [false, true])
            let sample = samples[0]
            #expect(sample["sends"] == ["succeeded": 1, "retryable": 0, "failed": 1])
            #expect(samples[1]["sends"] == ["succeeded": 0, "retryable": 0, "failed": 0])
            #expect(sample["failures"] == ["Unregistered": 1])
            #expect(sample["latency-seconds"]?["p50"]?.isNull == false)
            #expect(answer.json?["capacity"]?.intValue == 5)
            GatewayJSONFieldsTests.check(
                "gateway-metrics-history", [running.json, answer.json].compactMap { $0 },
                against: try GatewayJSONFieldsTests.documented())

            let send = try await gateway.request("GET", "/v1/metrics/history", key: gateway.send, over: wire)
            #expect(send.status == 403 && send.errorCode == "forbidden")
            let none = try await gateway.request("GET", "/v1/metrics/history", key: nil, over: wire)
            #expect(none.status == 401)
        }
    }
}
