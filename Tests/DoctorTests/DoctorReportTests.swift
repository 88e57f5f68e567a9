import APNs
import Doctor
import Testing

@Suite("DoctorReport", .timeLimit(.minutes(1)))
struct DoctorReportTests {
    @Test("the first cause along the path leads; the rest follow in path order")
    func firstCauseFirst() {
        let report = DoctorReport(findings: [
            DoctorFinding(.device, .cause, id: "DEVICE", "later cause"),
            DoctorFinding(.answer, .note, id: "ACCEPTED", "note"),
            DoctorFinding(.storage, .cause, id: "STORE", "first cause"),
            DoctorFinding(.request, .warning, id: "LINT", "warning"),
        ])
        #expect(report.findings.map(\.id) == ["STORE", "LINT", "ACCEPTED", "DEVICE"])
        #expect(report.firstCause?.id == "STORE")
        #expect(report.text.hasPrefix("1. cause [storage] STORE: first cause\n"))
        #expect(report.text.hasSuffix("cause: STORE at the storage step (and 1 more cause after it)\n"))
    }
}
