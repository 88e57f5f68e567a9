/// A value that breaks an APNs rule: which field, what was wrong, and what is allowed.
///
/// `field` uses the wire name (`apns-priority`, `token`, `aps.badge`, ...). The message never
/// contains secret material.
public struct FieldError: Error, Sendable, Equatable, CustomStringConvertible {
    public let field: String
    public let message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { "\(field): \(message)" }
}

/// Quotes a value for an error message, shortening long ones so one bad value cannot flood a log.
func quoted(_ value: String, limit: Int = 80) -> String {
    if value.count <= limit { return "'\(value)'" }
    return "'\(value.prefix(limit))…' (\(value.utf8.count) bytes)"
}
