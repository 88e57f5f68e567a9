/// How bad a finding is.
public enum Severity: String, Sendable, Hashable, CaseIterable, Comparable {
    /// APNs rejects the request, or it can never work on a device.
    case error
    /// APNs accepts it, but the device drops it or misbehaves.
    case warning
    /// Worth knowing: an entitlement it needs, a legacy key, an unusual value.
    case info

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .error: 0
        case .warning: 1
        case .info: 2
        }
    }
}

/// One problem the linter found: which rule, where, what is wrong and how to fix it.
public struct Finding: Sendable, Hashable, CustomStringConvertible {
    public let rule: LintRule
    /// The offending field: `apns-priority`, `token`, `aps.alert.loc-args`, `payload`, ...
    public let path: String
    /// What is wrong, naming the value.
    public let message: String
    /// How to fix it.
    public let fix: String?

    public var severity: Severity { rule.severity }

    public init(rule: LintRule, path: String, message: String, fix: String? = nil) {
        self.rule = rule
        self.path = path
        self.message = message
        self.fix = fix
    }

    /// `path: message; fix`.
    public var text: String {
        "\(path): \(message)" + (fix.map { "; \($0)" } ?? "")
    }

    /// `severity  RULE-ID  path: message; fix`, one line.
    public var description: String {
        "\(severity.rawValue.padding(to: 7))\(rule.id)  \(text)"
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
