import APNs
import DeviceModel
import Doctor
import Testing

/// `Doctor.diagnose` on each of the issue's cases: the first finding is the cause, at the right step.
@Suite("Doctor.diagnose", .timeLimit(.minutes(1)))
struct DoctorDiagnosisTests {
    typealias Cases = DoctorCases

    @Test("a background push at priority 10: the request's lint error is the first cause")
    func backgroundAtPriorityTen() {
        let report = Doctor.diagnose(
            DoctorCase(
                request: Cases.request(Cases.silent, type: "background", priority: "10"),
                answer: APNsAnswer(status: 200)))
        let cause = report.findings.first
        #expect(cause?.kind == .cause && cause?.step == .request && cause?.id == "APS-BG-PRIORITY", "\(report.text)")
        #expect(cause?.fix != nil)
    }

    @Test("a payload over the limit: PAYLOAD-TOO-LARGE first, then APNs's 413 with Apple's meaning")
    func payloadOverTheLimit() {
        let body = String(repeating: "x", count: 4200)
        let report = Doctor.diagnose(
            DoctorCase(
                request: Cases.request(#"{"aps":{"alert":{"body":"\#(body)"}}}"#),
                answer: APNsAnswer(status: 413, reason: .payloadTooLarge)))
        #expect(report.findings.map(\.id).prefix(2) == ["PAYLOAD-TOO-LARGE", "PayloadTooLarge"], "\(report.text)")
        #expect(report.findings[1].message.contains("The message payload is too large."))
    }

    @Test("BadDeviceToken for a token the emulator issued for the sandbox: sent to the other environment")
    func tokenOfTheOtherEnvironment() {
        let report = Doctor.diagnose(
            DoctorCase(
                request: Cases.request(Cases.alert),
                answer: APNsAnswer(status: 400, reason: .badDeviceToken, tokenEnvironment: "sandbox")))
        let cause = report.findings.first
        #expect(cause?.step == .answer && cause?.id == "BadDeviceToken", "\(report.text)")
        #expect(cause?.message.contains("the sandbox (a development build)") == true, "\(report.text)")
        #expect(cause?.fix?.contains("environment it came from") == true)
    }

    @Test("410 Unregistered: the app was removed, with the date from APNs's timestamp")
    func unregisteredWithDate() {
        let report = Doctor.diagnose(
            DoctorCase(
                request: Cases.request(Cases.alert),
                answer: APNsAnswer(status: 410, reason: .unregistered, timestamp: 1_767_258_000_000)))
        let cause = report.findings.first
        #expect(cause?.id == "Unregistered", "\(report.text)")
        #expect(cause?.message.contains("last knew the token valid at 2026-01-01T09:00:00Z") == true, "\(report.text)")
        #expect(cause?.message.contains("the app was removed from the device") == true)
    }

    @Test("TopicDisallowed: the usual cause is a key of another team")
    func topicDisallowed() {
        let report = Doctor.diagnose(
            DoctorCase(request: Cases.request(Cases.alert), answer: APNsAnswer(status: 400, reason: .topicDisallowed)))
        #expect(report.firstCause?.message.contains("another team") == true, "\(report.text)")
    }

    @Test("an offline device got only the newest of two pushes: STORE-REPLACED names the newer one")
    func replacedWhileOffline() {
        let first = LoggedPush(
            receivedAt: 1_000, token: Cases.token, topic: "com.example.app", apnsID: "A", status: 200)
        let second = LoggedPush(
            receivedAt: 2_000, token: Cases.token, topic: "com.example.app", apnsID: "B", status: 200)
        let report = Doctor.diagnose(
            DoctorCase(
                request: Cases.request(Cases.alert), answer: APNsAnswer(status: 200),
                storage: StorageEvidence(push: first, later: [second], deviceOnline: false)))
        #expect(report.firstCause?.id == "STORE-REPLACED", "\(report.text)")
        #expect(report.findings.first?.message.contains("apns-id B") == true)
    }

    @Test("a later push with the same collapse id: STORE-COLLAPSED")
    func collapsed() {
        let first = LoggedPush(receivedAt: 1_000, token: Cases.token, collapseID: "score", apnsID: "A", status: 200)
        let second = LoggedPush(receivedAt: 2_000, token: Cases.token, collapseID: "score", apnsID: "B", status: 200)
        let report = Doctor.diagnose(
            DoctorCase(
                request: Cases.request(Cases.alert, collapseID: "score"), answer: APNsAnswer(status: 200),
                storage: StorageEvidence(push: first, later: [second], deviceOnline: false)))
        #expect(report.firstCause?.id == "STORE-COLLAPSED", "\(report.text)")
    }

    @Test("a later push to a token no simulated device holds: a warning, not a cause")
    func replacedWithoutADevice() {
        let first = LoggedPush(receivedAt: 1_000, token: Cases.token, apnsID: "A", status: 200)
        let second = LoggedPush(receivedAt: 2_000, token: Cases.token, apnsID: "B", status: 200)
        let report = Doctor.diagnose(
            DoctorCase(
                request: Cases.request(Cases.alert), answer: APNsAnswer(status: 200),
                storage: StorageEvidence(push: first, later: [second], deviceOnline: nil)))
        #expect(report.firstCause == nil, "\(report.text)")
        #expect(report.findings.contains { $0.id == "STORE-REPLACED" && $0.kind == .warning })
    }

    @Test("an expiration already past when APNs received it: STORE-EXPIRED")
    func expiredOnArrival() {
        let push = LoggedPush(receivedAt: 2_000_000, token: Cases.token, expiration: 1_000, status: 200)
        let report = Doctor.diagnose(
            DoctorCase(answer: APNsAnswer(status: 200), storage: StorageEvidence(push: push)))
        #expect(report.firstCause?.id == "STORE-EXPIRED", "\(report.text)")
    }

    @Test("a foreground alert with no willPresent: FG-NOT-IMPLEMENTED at the device step")
    func foregroundWithoutWillPresent() throws {
        let report = Doctor.diagnose(
            DoctorCase(
                request: Cases.request(Cases.alert), answer: APNsAnswer(status: 200),
                profile: try Cases.profile(Cases.foregroundNoWillPresent)))
        let cause = report.findings.first
        #expect(cause?.step == .device && cause?.id == "FG-NOT-IMPLEMENTED", "\(report.text)")
        #expect(cause?.fix?.contains("willPresent") == true)
    }

    @Test("a Focus that does not allow the app: FOCUS-SILENCED is the cause; the scheduled summary holds it")
    func focusAndSummary() throws {
        let focused = Doctor.diagnose(
            DoctorCase(
                request: Cases.request(Cases.alert), answer: APNsAnswer(status: 200),
                profile: try Cases.profile(Cases.focusOn)))
        #expect(focused.firstCause?.id == "FOCUS-SILENCED", "\(focused.text)")
        #expect(focused.firstCause?.fix?.contains("time-sensitive") == true)
        let summarized = Doctor.diagnose(
            DoctorCase(
                request: Cases.request(Cases.alert), answer: APNsAnswer(status: 200),
                profile: try Cases.profile(Cases.summaryOn)))
        #expect(summarized.firstCause?.id == "SUMMARY-DELIVERY", "\(summarized.text)")
        #expect(summarized.firstCause?.fix?.contains("scheduled summary") == true)
    }

    @Test("a service extension that never calls its handler: NSE-TIME-LIMIT, the original content shown")
    func serviceExtensionNeverCalls() throws {
        let payload = #"{"aps":{"alert":{"title":"Payment","body":"Encrypted"},"mutable-content":1}}"#
        let report = Doctor.diagnose(
            DoctorCase(
                request: Cases.request(payload), answer: APNsAnswer(status: 200),
                profile: try Cases.profile(Cases.extensionNeverCalls)))
        #expect(report.firstCause?.id == "NSE-TIME-LIMIT", "\(report.text)")
        #expect(report.findings.first?.fix?.contains("serviceExtensionTimeWillExpire") == true)
        #expect(report.findings.first?.message.contains("the original content is shown") == true, "\(report.text)")
        #expect(report.causes.count == 1, "one rule, one cause: \(report.text)")
        #expect(report.findings.contains { $0.kind == .note && $0.message.contains("\"Payment\" / \"Encrypted\"") })
    }

    @Test("a silent push over the budget: BACKGROUND-BUDGET")
    func silentPushOverBudget() throws {
        let report = Doctor.diagnose(
            DoctorCase(
                request: Cases.request(Cases.silent, type: "background", priority: "5"),
                answer: APNsAnswer(status: 200), profile: try Cases.profile(Cases.budgetSpent)))
        #expect(report.firstCause?.id == "BACKGROUND-BUDGET", "\(report.text)")
    }

    @Test("authorization denied: PUSH-UNAUTHORIZED")
    func denied() throws {
        let report = Doctor.diagnose(
            DoctorCase(
                request: Cases.request(Cases.alert), answer: APNsAnswer(status: 200),
                profile: try Cases.profile(Cases.denied)))
        #expect(report.firstCause?.id == "PUSH-UNAUTHORIZED", "\(report.text)")
    }

    @Test("nothing wrong: no cause, and the device's note says what the user saw")
    func healthy() throws {
        let report = Doctor.diagnose(
            DoctorCase(
                request: Cases.request(Cases.alert, priority: "10"), answer: APNsAnswer(status: 200),
                profile: try Cases.profile(Cases.healthy)))
        #expect(report.firstCause == nil, "\(report.text)")
        #expect(report.findings.contains { $0.step == .device && $0.message.contains("\"Order\" / \"Shipped\"") })
        #expect(report.text.contains("no cause found"))
    }

    @Test("a profile whose app never registers: REG-NO-TOKEN")
    func neverRegistered() throws {
        let profile = try Cases.profile(#"{"app": {"bundle-id": "com.example.app"}, "script": [{"launch": {}}]}"#)
        let report = Doctor.diagnose(
            DoctorCase(request: Cases.request(Cases.alert), answer: APNsAnswer(status: 200), profile: profile))
        #expect(report.firstCause?.id == "REG-NO-TOKEN", "\(report.text)")
    }

    @Test("a refused push is not played on the device")
    func refusedNotPlayed() throws {
        let report = Doctor.diagnose(
            DoctorCase(
                request: Cases.request(Cases.alert), answer: APNsAnswer(status: 410, reason: .unregistered),
                profile: try Cases.profile(Cases.healthy)))
        #expect(report.findings.contains { $0.id == "NOT-DELIVERED" })
        #expect(!report.findings.contains { $0.step == .device && $0.kind == .cause })
    }
}
