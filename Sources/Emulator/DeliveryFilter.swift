/// Which delivery-log entries a query wants; nil fields match anything.
public struct DeliveryFilter: Sendable, Equatable {
    public var token: String?
    public var apnsID: String?
    /// A broadcast's `apns-channel-id`.
    public var channel: String?
    public var topic: String?
    public var status: Int?
    public var reason: String?
    /// Received at or after, in milliseconds since 1970.
    public var since: Int?
    /// Received at or before, in milliseconds since 1970.
    public var until: Int?
    /// At most this many, the newest.
    public var limit: Int?

    public init(
        token: String? = nil, apnsID: String? = nil, channel: String? = nil, topic: String? = nil, status: Int? = nil,
        reason: String? = nil,
        since: Int? = nil, until: Int? = nil, limit: Int? = nil
    ) {
        self.token = token
        self.apnsID = apnsID
        self.channel = channel
        self.topic = topic
        self.status = status
        self.reason = reason
        self.since = since
        self.until = until
        self.limit = limit
    }

    func matches(_ delivery: Delivery) -> Bool {
        if let token, delivery.token != token { return false }
        if let apnsID, delivery.apnsID != apnsID { return false }
        if let channel, delivery.channel != channel { return false }
        if let topic, delivery.topic != topic { return false }
        if let status, delivery.status != status { return false }
        if let reason, delivery.reason != reason { return false }
        if let since, delivery.receivedAt < since { return false }
        if let until, delivery.receivedAt > until { return false }
        return true
    }
}

extension DeliveryFilter {
    /// From the control API's query (`token`, `apns-id`, `topic`, `status`, `reason`, `since`, `until`,
    /// `limit`: the page size, at most `ControlAPI.maximumPageLimit`; `cursor` is the caller's to
    /// read); errors name the parameter and the rule.
    init(query: [String: String]) throws(ControlRequestError) {
        let known: Set = [
            "token", "apns-id", "channel", "topic", "status", "reason", "since", "until", "limit", "cursor",
        ]
        if let unknown = query.keys.sorted().first(where: { !known.contains($0) }) {
            throw ControlRequestError(
                field: unknown, "is not a filter (known: \(known.sorted().joined(separator: ", ")))")
        }
        if let empty = query.keys.sorted().first(where: { query[$0]?.isEmpty == true }) {
            throw ControlRequestError(field: empty, "needs a value (\(empty)=...); leave it out to match anything")
        }
        func number(_ key: String, _ range: ClosedRange<Int>) throws(ControlRequestError) -> Int? {
            guard let text = query[key] else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw ControlRequestError(
                    field: key, "must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return value
        }
        self.init(
            token: query["token"]?.lowercased(), apnsID: query["apns-id"]?.lowercased(), channel: query["channel"],
            topic: query["topic"],
            status: try number("status", 0...599), reason: query["reason"], since: try number("since", 0...Int.max),
            until: try number("until", 0...Int.max), limit: try number("limit", 1...ControlAPI.maximumPageLimit))
    }
}

/// A control-API request the emulator cannot carry out: 400 with `{"reason":"BadRequest","field":..,"error":..}`.
struct ControlRequestError: Error {
    let field: String
    let message: String

    init(field: String, _ message: String) {
        self.field = field
        self.message = message
    }
}
