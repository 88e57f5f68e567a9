import APNs
import Doctor
import Testing

/// What a gateway notification's state says, without a gateway: `GatewayLookup.Evidence`'s findings and answer.
@Suite("GatewayLookup.Evidence", .timeLimit(.minutes(1)))
struct GatewayEvidenceTests {
    static let token = String(repeating: "cd", count: 32)

    func evidence(_ delivery: GatewayLookup.GatewayDelivery?) -> GatewayLookup.Evidence {
        GatewayLookup.Evidence(
            bundleID: "com.example.app", state: "done", deliveries: delivery.map { [$0] } ?? [], chosen: delivery)
    }

    @Test("a delivery APNs refused: its reason is APNs's answer, with its status from the table")
    func refusedByAPNs() {
        let failed = evidence(
            .init(token: Self.token, environment: "sandbox", apnsID: "A", status: "failed", reason: "BadDeviceToken"))
        #expect(failed.answer == APNsAnswer(status: 400, reason: .badDeviceToken))
        let report = Doctor.diagnose(DoctorCase(answer: failed.answer, lookupFindings: failed.findings))
        #expect(report.firstCause?.id == "BadDeviceToken", "\(report.text)")
    }

    @Test("a reason of the gateway's own is not an APNs answer: the gateway's finding is the cause")
    func gatewayOwnReason() {
        let failed = evidence(
            .init(token: Self.token, environment: "sandbox", apnsID: "A", status: "failed", reason: "TokenNotActive"))
        #expect(failed.answer == nil)
        let report = Doctor.diagnose(DoctorCase(answer: failed.answer, lookupFindings: failed.findings))
        #expect(report.firstCause?.id == "TokenNotActive", "\(report.text)")
        #expect(report.firstCause?.message.contains("without an answer from APNs") == true)
    }

    @Test("no delivery, a pending one, a cancelled one: each a cause of the gateway's")
    func notSent() {
        #expect(evidence(nil).findings.contains { $0.id == "GATEWAY-NO-DELIVERY" && $0.kind == .cause })
        let pending = evidence(
            .init(token: Self.token, environment: "sandbox", apnsID: "A", status: "pending", reason: "Timeout"))
        #expect(pending.findings.contains { $0.id == "GATEWAY-PENDING" && $0.message.contains("Timeout") })
        let cancelled = evidence(.init(token: Self.token, environment: "sandbox", apnsID: "A", status: "cancelled"))
        #expect(cancelled.findings.contains { $0.id == "GATEWAY-CANCELLED" })
        let sent = evidence(.init(token: Self.token, environment: "sandbox", apnsID: "A", status: "succeeded"))
        #expect(sent.answer?.status == 200 && !sent.findings.contains { $0.kind == .cause })
    }

    @Test("the device's history: its latest deliveries by outcome, the last success, failing since when and why")
    func deviceHistory() {
        var pruned = evidence(
            .init(token: Self.token, environment: "sandbox", apnsID: "A", status: "failed", reason: "Unregistered"))
        pruned.history = [
            .init(notificationID: "n4", status: "failed", reason: "Unregistered", lastAttemptAt: 1_767_258_300_000),
            .init(notificationID: "n3", status: "failed", reason: "Unregistered", lastAttemptAt: 1_767_258_200_000),
            .init(notificationID: "n2", status: "succeeded", lastAttemptAt: 1_767_258_100_000),
            .init(notificationID: "n1", status: "succeeded", lastAttemptAt: 1_767_258_000_000),
        ]
        let line = pruned.findings.first { $0.id == "GATEWAY-DEVICE-HISTORY" }
        #expect(line?.kind == .note)
        #expect(
            line?.message
                == "the device's latest 4 deliveries: 2 succeeded; 2 failed (Unregistered); the last success: "
                + "notification n2 at 2026-01-01T09:01:40Z; failing since notification n3 at 2026-01-01T09:03:20Z "
                + "(Unregistered)", "\(line?.message ?? "none")")
        pruned.history = [.init(notificationID: "n1", status: "failed", reason: "BadDeviceToken")]
        #expect(
            pruned.findings.first { $0.id == "GATEWAY-DEVICE-HISTORY" }?.message
                == "the device's latest 1 delivery: 0 succeeded; 1 failed (BadDeviceToken); none succeeded")
        #expect(evidence(nil).findings.allSatisfy { $0.id != "GATEWAY-DEVICE-HISTORY" })
    }
}
