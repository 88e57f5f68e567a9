import APNs
import APNsClient
import Emulator
import Gateway
import Testing

/// A fan-out's batch shares one request and one encoded payload, yet each delivery goes out with
/// its own token and apns-id and comes back as its own outcome, whatever order APNs answers in;
/// the metrics count every outcome.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct FanOutOutcomeTests {
    @Test(arguments: [StoreKind.memory, .sqlite])
    func eachDeliveryGetsItsOwnRequestAndOutcome(kind: StoreKind) async throws {
        try await DeliveryHarness.with(kind) { harness in
            let tokens = try await harness.register(1..<121, tags: ["all"])
            // Every fourth token answered late (answers come back out of order), every ninth rejected.
            let rejected = Set(stride(from: 2, to: tokens.count, by: 9).map { tokens[$0].hex })
            for index in stride(from: 0, to: tokens.count, by: 4) where !rejected.contains(tokens[index].hex) {
                harness.emulator.faults.add(
                    Fault(action: .delay, selection: .fraction(1), latencyMilliseconds: 30, token: tokens[index].hex))
            }
            for token in rejected {
                harness.emulator.faults.add(
                    Fault(action: .respond(status: 400, reason: .badDeviceToken), selection: .fraction(1), token: token)
                )
            }
            let id = try await harness.create(request(to: .tags(["all"])))
            harness.engine.start()
            harness.engine.wake()
            try await harness.untilFinished(id)

            let rows = try await harness.deliveries(id)
            #expect(rows.count == tokens.count)
            let log = harness.emulator.log.entries()
            #expect(log.count == tokens.count, "one request per delivery")
            let sent = Dictionary(log.map { ($0.token ?? "", $0) }, uniquingKeysWith: { first, _ in first })
            for row in rows {
                #expect(sent[row.recipient]?.apnsID == row.apnsID.value, "the row's token went with the row's apns-id")
                #expect(sent[row.recipient]?.payload == Array(#"{"aps":{"alert":"hi"}}"#.utf8))
                if rejected.contains(row.recipient) {
                    #expect(row.status == .failed && row.reason == "BadDeviceToken", "\(row.recipient)")
                } else {
                    #expect(row.status == .succeeded && row.apnsUniqueID == sent[row.recipient]?.uniqueID)
                }
            }
            let accepted = tokens.count - rejected.count
            #expect(harness.metrics.sends[.succeeded]?[""] == accepted)
            #expect(harness.metrics.sends[.failed]?["BadDeviceToken"] == rejected.count)
            #expect(harness.metrics.sendsInFlight == 0)
            let parsed = try PrometheusExposition(parsing: harness.metrics.prometheusText())
            #expect(parsed.value("herald_gateway_send_duration_seconds_count") == Double(tokens.count))
        }
    }
}
