import APNs
import Testing

@testable import Gateway

/// A sender's tally of successes, added to the metrics in one go, counts
/// what recording each send on its own counts.
@Suite(.timeLimit(.minutes(1)))
struct GatewayMetricsTallyTests {
    @Test func aTallyAddsWhatEachSendRecordedAloneWould() {
        let latencies: [UInt64] = [0, 999, 1_000, 1_001, 40_000, 2_400_000, 31_000_000, 800, 800]
        let alone = GatewayMetrics()
        let tallied = GatewayMetrics()
        var tally = GatewayMetrics.SendTally()
        for microseconds in latencies {
            alone.recordSend(.succeeded, reason: nil, microseconds: microseconds)
            tally.countSuccess(microseconds: microseconds)
        }
        tallied.add(&tally)
        #expect(tallied.prometheusText() == alone.prometheusText())
        #expect(tallied.sends[.succeeded]?[""] == latencies.count)
        #expect(tally.succeeded == 0, "adding clears the tally")
        tallied.add(&tally)
        #expect(tallied.prometheusText() == alone.prometheusText(), "an empty tally adds nothing")
    }
}
