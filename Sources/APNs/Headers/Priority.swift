/// The `apns-priority` header.
public enum Priority: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 10: deliver now (the default for most push types).
    case immediate = 10
    /// 5: deliver with the device's power in mind; the only valid priority for background pushes.
    case powerConsiderate = 5
    /// 1: never wake the device; deliver with the next wake-up.
    case low = 1

    public init(headerValue: String) throws(FieldError) {
        guard ["10", "5", "1"].contains(headerValue), let number = Int(headerValue), let priority = Priority(rawValue: number)
        else {
            throw FieldError(field: "apns-priority", message: "\(quoted(headerValue)) is not a priority; use 10, 5 or 1")
        }
        self = priority
    }

    public var headerValue: String { String(rawValue) }
    public var description: String { headerValue }
}
