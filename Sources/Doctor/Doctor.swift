import APNs
import DeviceModel

// "Why didn't it arrive?" for one notification: the path walked in order (docs/DOCTOR.md).
//
//   request (lint) -> APNs's answer (reason, Apple's meaning, usual causes)
//     -> storage while offline (newest per app, collapse id, expiration) -> the device (the model's run)
//
// Each step gives findings; the report puts the first cause along the path first. A step with nothing to
// look at (no answer known, no profile) is skipped with a note, never guessed.

/// Diagnoses one notification from what is known about it (`DoctorCase`). Pure: no I/O; the lookups that
/// fill a case are `EmulatorLookup` and `GatewayLookup`.
public enum Doctor {
    public static func diagnose(_ input: DoctorCase) -> DoctorReport {
        var findings = input.lookupFindings
        let lint = input.request.map { Linter.lint($0) }
        if let lint { findings += requestFindings(lint) }
        if let answer = input.answer {
            findings += answerFindings(answer)
        } else {
            findings.append(
                DoctorFinding(
                    .answer, .note, id: "NO-ANSWER",
                    "APNs's answer is not known (no delivery log entry, no recorded reason): steps 2 and 3 are skipped"
                ))
        }
        if let storage = input.storage, input.answer.map({ $0.status == 200 }) ?? true {
            findings += storageFindings(storage)
        }
        if let profile = input.profile {
            if let answer = input.answer, answer.status != 200 {
                findings.append(
                    DoctorFinding(
                        .device, .note, id: "NOT-DELIVERED",
                        "APNs refused it (\(answer.status)): it never reached the device, so the profile was not played"
                    ))
            } else if let request = input.request {
                findings += DeviceDiagnosis(profile: profile, request: request, pushType: lint?.pushType).findings()
            } else {
                findings.append(
                    DoctorFinding(
                        .device, .note, id: "NO-PAYLOAD", "the payload is not known, so the profile was not played"))
            }
        }
        return DoctorReport(findings: findings, sources: input.sources)
    }

    /// The linter's findings: an error is a cause (APNs refuses it, or the device mishandles it), a warning
    /// a warning, info a note.
    static func requestFindings(_ report: LintReport) -> [DoctorFinding] {
        report.findings.map { finding in
            let kind: DoctorFinding.Kind =
                switch finding.severity {
                case .error: .cause
                case .warning: .warning
                case .info: .note
                }
            var message = "\(finding.path): \(finding.message)"
            if let reason = finding.rule.reason { message += " (APNs answers \(reason))" }
            return DoctorFinding(.request, kind, id: finding.rule.id, message, fix: finding.fix ?? finding.rule.summary)
        }
    }
}
