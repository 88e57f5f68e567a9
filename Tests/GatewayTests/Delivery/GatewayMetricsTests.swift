import APNs
import Emulator
import Gateway
import Testing

/// `GatewayMetrics` and its Prometheus rendering, alone and after the engine sent to the emulator.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct GatewayMetricsTests {
    @Test func theTextFormatParsesAndCarriesEveryCount() throws {
        let metrics = GatewayMetrics()
        metrics.recordSend(.succeeded, reason: nil, microseconds: 800)
        metrics.recordSend(.succeeded, reason: nil, microseconds: 40_000)
        metrics.recordSend(.retryable, reason: "ServiceUnavailable", microseconds: 3_000_000)
        metrics.recordSend(.failed, reason: "NoClientForEnvironment", microseconds: nil)
        metrics.recordPruned(2)
        metrics.setQueueDepth(17)
        metrics.countConnections { 3 }
        let text = metrics.prometheusText()
        let parsed = try PrometheusExposition(parsing: text)
        #expect(parsed.types["herald_gateway_sends_total"] == "counter")
        #expect(parsed.types["herald_gateway_send_duration_seconds"] == "histogram")
        #expect(parsed.types["herald_gateway_queue_depth"] == "gauge")
        #expect(parsed.value("herald_gateway_sends_total", ["status": "succeeded", "reason": ""]) == 2)
        #expect(
            parsed.value("herald_gateway_sends_total", ["status": "retryable", "reason": "ServiceUnavailable"]) == 1)
        #expect(
            parsed.value("herald_gateway_sends_total", ["status": "failed", "reason": "NoClientForEnvironment"]) == 1)
        #expect(parsed.value("herald_gateway_send_duration_seconds_bucket", ["le": "0.001"]) == 1)
        #expect(parsed.value("herald_gateway_send_duration_seconds_bucket", ["le": "0.05"]) == 2)
        #expect(parsed.value("herald_gateway_send_duration_seconds_bucket", ["le": "2.5"]) == 2)
        #expect(parsed.value("herald_gateway_send_duration_seconds_bucket", ["le": "5"]) == 3)
        #expect(parsed.value("herald_gateway_send_duration_seconds_bucket", ["le": "+Inf"]) == 3)
        #expect(parsed.value("herald_gateway_send_duration_seconds_count") == 3)
        #expect(parsed.value("herald_gateway_send_duration_seconds_sum") == 3.0408)
        #expect(parsed.value("herald_gateway_pruned_tokens_total") == 2)
        #expect(parsed.value("herald_gateway_queue_depth") == 17)
        #expect(parsed.value("herald_gateway_apns_connections") == 3)
        #expect(parsed.value("herald_gateway_sends_in_flight") == 0)
        let buckets = parsed.samples.filter { $0.name == "herald_gateway_send_duration_seconds_bucket" }.map(\.value)
        #expect(buckets == buckets.sorted(), "buckets are cumulative")
    }

    @Test func labelValuesAreEscaped() throws {
        let metrics = GatewayMetrics()
        let reason = "a \"quoted\" back\\slash\nand a newline\r\n"
        metrics.recordSend(.failed, reason: reason, microseconds: nil)
        let text = metrics.prometheusText()
        #expect(text.contains(#"reason="a \"quoted\" back\\slash\nand a newline"#))
        let parsed = try PrometheusExposition(parsing: text)
        #expect(parsed.value("herald_gateway_sends_total", ["status": "failed", "reason": reason]) == 1)
    }

    @Test func theQueueDepthIsUnknownUntilCounted() throws {
        let parsed = try PrometheusExposition(parsing: GatewayMetrics().prometheusText())
        #expect(parsed.value("herald_gateway_queue_depth")?.isNaN == true)
    }

    @Test(arguments: StoreKind.allCases)
    func theEnginesCountsMatchWhatTheEmulatorSaw(kind: StoreKind) async throws {
        try await DeliveryHarness.with(kind) { harness in
            let tokens = try await harness.register(1..<21, tags: ["all"])
            harness.emulator.faults.add(
                Fault(
                    action: .respond(status: 400, reason: .badDeviceToken), selection: .fraction(1),
                    token: tokens[3].hex))
            let id = try await harness.create(request(to: .tags(["all"])))
            harness.engine.start()
            harness.engine.wake()
            try await harness.untilFinished(id)
            try await harness.until { harness.metrics.queueDepth == 0 }
            let parsed = try PrometheusExposition(parsing: harness.metrics.prometheusText())
            let log = harness.emulator.log.entries()
            let accepted = Double(log.filter { $0.status == 200 }.count)
            #expect(accepted == 19)
            #expect(parsed.value("herald_gateway_sends_total", ["status": "succeeded", "reason": ""]) == accepted)
            #expect(parsed.value("herald_gateway_sends_total", ["status": "failed", "reason": "BadDeviceToken"]) == 1)
            #expect(parsed.value("herald_gateway_send_duration_seconds_count") == Double(log.count))
            #expect(parsed.value("herald_gateway_pruned_tokens_total") == 1)
            #expect(parsed.value("herald_gateway_queue_depth") == 0)
            #expect(parsed.value("herald_gateway_sends_in_flight") == 0)
            #expect((parsed.value("herald_gateway_apns_connections") ?? 0) >= 1)
        }
    }
}
