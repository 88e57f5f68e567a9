import APNs

/// `herald lint`: prints every finding for a payload and its headers; exit 1 if any is an error.
struct LintCommand {
    let options: LintOptions
    let context: CommandContext

    func run() -> Int32 {
        if options.requests { return LintRequestsCommand(options: options, context: context).run() }
        let file: [UInt8]
        do {
            file = try context.read(options.input)
        } catch {
            context.standardError("herald lint: \(error)\n")
            return ExitStatus.failure
        }
        // What `herald send` would send: the size that counts is the compact form's.
        let payload = PayloadFile.compacted(file)
        let destination: LintRequest.Destination =
            options.simulator ? .simulatorFile : options.broadcast ? .broadcast : .device
        let report = Linter.lint(LintRequest(
            payload: payload, pushType: options.pushType, topic: options.topic, priority: options.priority,
            expiration: options.expiration, collapseID: options.collapseID, apnsID: options.apnsID,
            token: options.token, destination: destination, now: context.now()))
        context.standardOutput(options.json ? json(report, fileSize: file.count) : human(report, fileSize: file.count))
        return report.hasErrors ? ExitStatus.failure : ExitStatus.success
    }

    private func human(_ report: LintReport, fileSize: Int) -> String {
        var lines: [String] = []
        if report.pushTypeWasInferred, let type = report.pushType {
            lines.append("note   push type \(type) inferred from the payload; pass --type to set it")
        }
        lines += report.findings.map(\.description)
        let counts = Severity.allCases.map { severity in
            let count = report.findings(severity).count
            return "\(count) \(severity.rawValue)\(count == 1 || severity == .info ? "" : "s")"
        }
        var size = "payload \(report.payloadSize) of \(report.payloadLimit) bytes"
        if fileSize > report.payloadSize { size += " (compact; the file has \(fileSize))" }
        lines.append(report.findings.isEmpty ? "ok: no findings (\(size))" : "\(counts.joined(separator: ", ")) (\(size))")
        return lines.joined(separator: "\n") + "\n"
    }

    private func json(_ report: LintReport, fileSize: Int) -> String {
        let findings: [JSONValue] = report.findings.map { finding in
            var object: JSONObject = JSONObject()
            object["rule"] = .string(finding.rule.id)
            object["severity"] = .string(finding.severity.rawValue)
            object["path"] = .string(finding.path)
            object["message"] = .string(finding.message)
            object["fix"] = finding.fix.map(JSONValue.string) ?? .null
            if let reason = finding.rule.reason { object["apns-reason"] = .string(reason.rawValue) }
            return .object(object)
        }
        var root = JSONObject()
        root["findings"] = .array(findings)
        root["push-type"] = report.pushType.map { .string($0.rawValue) } ?? .null
        root["push-type-inferred"] = .bool(report.pushTypeWasInferred)
        root["payload-size"] = .number(JSONNumber(report.payloadSize))
        root["payload-limit"] = .number(JSONNumber(report.payloadLimit))
        root["file-size"] = .number(JSONNumber(fileSize))
        return JSONValue.object(root).encodedString + "\n"
    }
}
