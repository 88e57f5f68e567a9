/// The `apns-collapse-id` header: a stored notification with the same id is replaced.
public struct CollapseID: Sendable, Hashable, CustomStringConvertible {
    /// At most 64 bytes of UTF-8.
    public static let maximumBytes = 64

    public let value: String

    public init(_ value: String) throws(FieldError) {
        let bytes = value.utf8.count
        guard bytes > 0 else { throw FieldError(field: "apns-collapse-id", message: "is empty; omit the header instead") }
        guard bytes <= Self.maximumBytes else {
            throw FieldError(
                field: "apns-collapse-id",
                message: "\(quoted(value)) is \(bytes) bytes of UTF-8; at most \(Self.maximumBytes) are allowed")
        }
        self.value = value
    }

    public var description: String { value }
}
