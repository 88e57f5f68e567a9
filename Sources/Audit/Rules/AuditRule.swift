import APNs

/// One audit rule: a stable id, how bad breaking it is, the rule in one line and the usual fix.
public struct AuditRule: Sendable, Hashable, CustomStringConvertible {
    public let id: String
    public let severity: Severity
    /// The rule in one line, as docs/AUDIT-RULES.md states it.
    public let summary: String
    public let fix: String

    init(_ id: String, _ severity: Severity, _ summary: String, fix: String) {
        self.id = id
        self.severity = severity
        self.summary = summary
        self.fix = fix
    }

    public var description: String { id }
}

/// One violation: the rule, the file and position, and what is wrong there.
public struct AuditFinding: Sendable, Hashable, CustomStringConvertible {
    public let rule: AuditRule
    public let path: String
    public let location: SourceLocation
    public let message: String

    public var severity: Severity { rule.severity }

    public init(rule: AuditRule, path: String, location: SourceLocation, message: String) {
        self.rule = rule
        self.path = path
        self.location = location
        self.message = message
    }

    /// `file:line:column: severity RULE message`, then the fix on the next line.
    public var description: String {
        "\(path):\(location): \(severity.rawValue) \(rule.id) \(message)\n    fix: \(rule.fix)"
    }
}
