/// A lint rule: a stable id, a severity, what it checks and, when APNs itself enforces it, the
/// reason APNs answers with (the emulator answers with the same).
public struct LintRule: Sendable, Hashable, CustomStringConvertible {
    /// Stable across releases, e.g. `APS-BG-PRIORITY`; safe to match on in CI.
    public let id: String
    public let severity: Severity
    /// What the rule checks, in one line.
    public let summary: String
    /// The reason APNs rejects such a request with; nil for device-side contracts.
    public let reason: Reason?

    init(_ id: String, _ severity: Severity, _ summary: String, reason: Reason? = nil) {
        self.id = id
        self.severity = severity
        self.summary = summary
        self.reason = reason
    }

    public var description: String { id }

    /// The rule with this id, if any.
    public static func named(_ id: String) -> LintRule? {
        all.first { $0.id == id }
    }
}
