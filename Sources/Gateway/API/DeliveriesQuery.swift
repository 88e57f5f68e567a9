import APNs

/// `GET /v1/notifications/{id}/deliveries?cursor=&limit=` (and a device's, newest first): the query,
/// and the page as JSON.
/// A cursor is opaque to clients: pass back the `next-cursor` of the page before.
struct DeliveriesQuery: Equatable {
    static let defaultLimit = 100
    static let maximumLimit = 1_000
    static let parameters = ["cursor", "limit"]

    var cursor: Int?
    var limit = defaultLimit

    /// Parses the request target's query (`GatewayQuery`); an unknown, repeated or malformed
    /// parameter is a 400 naming it.
    init(target: String) throws(GatewayAPIError) {
        let query = try GatewayQuery(target: target)
        try query.allow(Self.parameters)
        if let value = query["cursor"] {
            guard let number = Self.digits(value) else {
                throw .badRequest(
                    field: "cursor", "'\(value)' is not a cursor; pass the next-cursor of the page before")
            }
            cursor = number
        }
        limit = try Self.limit(query["limit"])
    }

    /// The `limit` parameter's value: 1 to `maximumLimit`, `defaultLimit` when absent.
    static func limit(_ value: String?) throws(GatewayAPIError) -> Int {
        guard let value else { return defaultLimit }
        guard let number = Self.digits(value), (1...Self.maximumLimit).contains(number) else {
            throw .badRequest(field: "limit", "'\(value)' is not a limit; use 1 to \(Self.maximumLimit)")
        }
        return number
    }

    /// A number of decimal digits only (no sign, no spaces), else nil.
    static func digits(_ value: String) -> Int? {
        value.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ? Int(value) : nil
    }

    /// The page as `gateway-deliveries` (docs/GATEWAY.md).
    static func json(_ page: DeliveryPage) -> JSONValue {
        func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
        let deliveries: [JSONValue] = page.deliveries.map { delivery in
            [
                "notification-id": .string(delivery.notificationID),
                "token": .string(delivery.recipient),
                "kind": .string(delivery.kind.rawValue),
                "environment": .string(delivery.environment.rawValue),
                "apns-id": .string(delivery.apnsID.value),
                "apns-unique-id": optional(delivery.apnsUniqueID),
                "status": .string(delivery.status.rawValue),
                "reason": optional(delivery.reason),
                "attempts": .number(JSONNumber(delivery.attempts)),
                "last-attempt-at": delivery.lastAttemptAt.map { .number(JSONNumber($0)) } ?? .null,
            ]
        }
        return ["deliveries": .array(deliveries), "next-cursor": optional(page.nextCursor.map(String.init))]
    }
}
