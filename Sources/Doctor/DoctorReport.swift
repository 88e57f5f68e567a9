import APNs

/// What the doctor found for one notification: its findings with the first cause first, then the rest in
/// path order (request, answer, storage, device).
public struct DoctorReport: Sendable, Hashable {
    /// The findings in the order they are reported.
    public let findings: [DoctorFinding]
    /// What the doctor looked at (`lint`, `emulator delivery log`, `device profile`, ...), for the reader.
    public let sources: [String]

    /// Orders `findings` for reporting: the first cause along the path leads, the other findings follow in
    /// path order (a stable sort keeps each step's own order).
    public init(findings: [DoctorFinding], sources: [String] = []) {
        let ordered = findings.enumerated().sorted { lhs, rhs in
            if lhs.element.step != rhs.element.step { return lhs.element.step < rhs.element.step }
            return lhs.offset < rhs.offset
        }.map(\.element)
        if let first = ordered.firstIndex(where: { $0.kind == .cause }) {
            var reordered = ordered
            let cause = reordered.remove(at: first)
            self.findings = [cause] + reordered
        } else {
            self.findings = ordered
        }
        self.sources = sources
    }

    /// The first cause found, nearest the sender.
    public var firstCause: DoctorFinding? { findings.first { $0.kind == .cause } }

    public var causes: [DoctorFinding] { findings.filter { $0.kind == .cause } }

    /// Numbered findings, one block each (`1. cause [request] APS-BG-PRIORITY: ...` then `   fix: ...`), and a
    /// last line that names the cause or says none was found.
    public var text: String {
        var lines: [String] = []
        for (index, finding) in findings.enumerated() {
            lines.append(
                "\(index + 1). \(finding.kind.rawValue) [\(finding.step.name)] \(finding.id): \(finding.message)")
            if let fix = finding.fix { lines.append("   fix: \(fix)") }
        }
        if let cause = firstCause {
            let others = causes.count - 1
            lines.append(
                "cause: \(cause.id) at the \(cause.step.name) step"
                    + (others > 0 ? " (and \(others) more cause\(others == 1 ? "" : "s") after it)" : ""))
        } else {
            lines.append("no cause found" + (sources.isEmpty ? "" : " (looked at: \(sources.joined(separator: ", ")))"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `{"cause": {...} | null, "findings": [{"number","step","kind","id","message","fix"}], "sources": [...]}`
    /// (docs/DOCTOR.md).
    public var json: JSONValue {
        let items: [JSONValue] = findings.enumerated().map { index, finding in
            var object = JSONObject([.init(key: "number", value: .number(JSONNumber(index + 1)))])
            for member in Self.object(finding) { object.append(key: member.key, value: member.value) }
            return .object(object)
        }
        var root = JSONObject()
        root["cause"] = firstCause.map { .object(Self.object($0)) } ?? .null
        root["findings"] = .array(items)
        root["sources"] = .array(sources.map(JSONValue.string))
        return .object(root)
    }

    private static func object(_ finding: DoctorFinding) -> JSONObject {
        var object = JSONObject()
        object["step"] = .string(finding.step.name)
        object["kind"] = .string(finding.kind.rawValue)
        object["id"] = .string(finding.id)
        object["message"] = .string(finding.message)
        object["fix"] = finding.fix.map(JSONValue.string) ?? .null
        return object
    }
}
