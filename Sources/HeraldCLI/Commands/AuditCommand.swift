import APNs
import Audit

/// `herald audit`: prints every finding in an app's notification code; exit 1 if any is an error.
struct AuditCommand {
    let options: AuditOptions
    let context: CommandContext

    func run() -> Int32 {
        let report: AuditReport
        do {
            let compiler = try SwiftCompiler.find(environment: context.environment)
            report = try Auditor.audit(
                AuditRequest(paths: options.paths, infoPlist: options.infoPlist, entitlements: options.entitlements),
                compiler: compiler)
        } catch {
            context.standardError("herald audit: \(error)\n")
            return ExitStatus.failure
        }
        context.standardOutput(options.json ? json(report) : human(report))
        return report.hasErrors ? ExitStatus.failure : ExitStatus.success
    }

    private func human(_ report: AuditReport) -> String {
        var lines = report.findings.map(\.description)
        if report.infoPlists.isEmpty {
            lines.append("note   no Info.plist found: AUDIT-BACKGROUND-MODE not checked (give --info-plist FILE)")
        }
        if report.entitlements.isEmpty {
            lines.append("note   no .entitlements found: AUDIT-APS-ENVIRONMENT not checked (give --entitlements FILE)")
        }
        let files = "\(report.swiftFiles.count) Swift file\(report.swiftFiles.count == 1 ? "" : "s")"
        if report.findings.isEmpty {
            lines.append("ok: no findings in \(files)")
        } else {
            let counts = Severity.allCases.map { severity in
                let count = report.findings.filter { $0.severity == severity }.count
                return "\(count) \(severity.rawValue)\(count == 1 || severity == .info ? "" : "s")"
            }
            lines.append("\(counts.joined(separator: ", ")) in \(files)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func json(_ report: AuditReport) -> String {
        let findings: [JSONValue] = report.findings.map { finding in
            var object = JSONObject()
            object["rule"] = .string(finding.rule.id)
            object["severity"] = .string(finding.severity.rawValue)
            object["file"] = .string(finding.path)
            object["line"] = .number(JSONNumber(finding.location.line))
            object["column"] = .number(JSONNumber(finding.location.column))
            object["message"] = .string(finding.message)
            object["fix"] = .string(finding.rule.fix)
            return .object(object)
        }
        var root = JSONObject()
        root["findings"] = .array(findings)
        root["swift-files"] = .number(JSONNumber(report.swiftFiles.count))
        root["info-plists"] = .array(report.infoPlists.map(JSONValue.string))
        root["entitlements"] = .array(report.entitlements.map(JSONValue.string))
        return JSONValue.object(root).encodedString + "\n"
    }
}
