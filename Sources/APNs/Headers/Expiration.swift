/// The `apns-expiration` header: until when APNs stores the notification for an offline device.
public enum Expiration: Sendable, Hashable, CustomStringConvertible {
    /// `0`: deliver once if the device is reachable now; never store.
    case immediately
    /// Store until this UNIX time (seconds), then drop.
    case at(unixSeconds: Int)

    /// Parses the header: decimal UNIX seconds, `0` meaning don't store.
    public init(headerValue: String) throws(FieldError) {
        guard !headerValue.isEmpty, headerValue.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let seconds = Int(headerValue)
        else {
            throw FieldError(
                field: "apns-expiration",
                message: "\(quoted(headerValue)) is not an expiration; use UNIX seconds, or 0 to never store")
        }
        self = seconds == 0 ? .immediately : .at(unixSeconds: seconds)
    }

    public var unixSeconds: Int {
        switch self {
        case .immediately: 0
        case .at(let seconds): seconds
        }
    }

    public var headerValue: String { String(unixSeconds) }
    public var description: String { headerValue }

    /// How long APNs keeps a notification at most (Apple: "up to 30 days" in practice).
    public static let maximumStorageSeconds = 30 * 24 * 3600
}
