import APNs

/// `GET /v1/notifications/{id}/deliveries?cursor=&limit=`: the query, and the page as JSON.
/// A cursor is opaque to clients: pass back the `next-cursor` of the page before.
struct DeliveriesQuery: Equatable {
    static let defaultLimit = 100
    static let maximumLimit = 1_000
    static let parameters = ["cursor", "limit"]

    var cursor: Int?
    var limit = defaultLimit

    /// Parses the request target's query; an unknown, repeated or malformed parameter is a 400
    /// naming it.
    init(target: String) throws(GatewayAPIError) {
        guard let mark = target.firstIndex(of: "?") else { return }
        var seen: Set<String> = []
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let value = parts.count == 2 ? String(parts[1]) : ""
            guard Self.parameters.contains(name) else {
                throw .badRequest(
                    field: name, "is not a parameter here; use \(Self.parameters.joined(separator: ", "))")
            }
            guard seen.insert(name).inserted else { throw .badRequest(field: name, "appears twice") }
            // Both are decimal digits, so nothing needs percent-decoding: anything else is refused.
            let number = value.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ? Int(value) : nil
            if name == "cursor" {
                guard let number else {
                    throw .badRequest(
                        field: "cursor", "'\(value)' is not a cursor; pass the next-cursor of the page before")
                }
                cursor = number
            } else {
                guard let number, (1...Self.maximumLimit).contains(number) else {
                    throw .badRequest(field: "limit", "'\(value)' is not a limit; use 1 to \(Self.maximumLimit)")
                }
                limit = number
            }
        }
    }

    /// The page as `gateway-deliveries` (docs/GATEWAY.md).
    static func json(_ page: DeliveryPage) -> JSONValue {
        func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
        let deliveries: [JSONValue] = page.deliveries.map { delivery in
            [
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
