import APNs
import HTTP2

/// A fault the emulator injects into provider requests (`/3/device`, `/4/broadcasts`), for tests of
/// how a client copes with APNs misbehaving.
///
/// Declared through the control API as JSON, for example
/// `{"action":"respond","status":503,"reason":"ServiceUnavailable","count":3}` or
/// `{"action":"goaway","reason":"Shutdown"}` or `{"action":"delay","latencyMs":250,"fraction":0.5}`.
public struct Fault: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        /// Answer with this status and reason instead of processing the request.
        case respond(status: Int, reason: Reason)
        /// Send GOAWAY with `{"reason": ...}` as debug data; this request is left unprocessed (the client
        /// may resend it on another connection). The connection serves no new requests.
        case goAway(reason: Reason)
        /// RST_STREAM on this request's stream.
        case reset(HTTP2ErrorCode)
        /// Drop the connection without a word.
        case disconnect
        /// Process the request normally (only `latencyMilliseconds` applies).
        case delay
    }

    /// Which requests the fault applies to.
    public enum Selection: Sendable, Equatable {
        /// The next `n` matching requests.
        case next(Int)
        /// Each matching request with this probability, until the fault is removed.
        case fraction(Double)
    }

    public var action: Action
    public var selection: Selection
    /// Added before the request is answered (or the action taken).
    public var latencyMilliseconds: Int
    /// Only requests to this device token (lowercase hex) or channel id.
    public var token: String?
    /// Only requests with this `apns-topic` (device pushes) or bundle id (broadcasts).
    public var topic: String?

    public init(
        action: Action, selection: Selection = .next(1), latencyMilliseconds: Int = 0, token: String? = nil,
        topic: String? = nil
    ) {
        self.action = action
        self.selection = selection
        self.latencyMilliseconds = latencyMilliseconds
        self.token = token
        self.topic = topic
    }
}

extension Fault {
    /// Longest added latency accepted (a test that wants longer wants a timeout fault instead).
    static let maximumLatencyMilliseconds = 60_000

    /// Decodes the control API's JSON form; errors name the field and the rule.
    public init(json: JSONValue) throws(FieldError) {
        guard let given = json.objectValue else { throw FieldError(field: "fault", message: "must be a JSON object") }
        let known: Set = ["action", "status", "reason", "error-code", "count", "fraction", "latency-ms", "token", "topic"]
        // The names before Herald's JSON was all kebab-case, still read.
        let renamed = ["errorCode": "error-code", "latencyMs": "latency-ms"]
        var object = given
        for (old, new) in renamed {
            guard let value = object[old] else { continue }
            guard object[new] == nil else { throw FieldError(field: old, message: "is the old name of '\(new)'; give one") }
            object = JSONObject(object.members.map { $0.key == old ? .init(key: new, value: value) : $0 })
        }
        if let unknown = object.members.first(where: { !known.contains($0.key) }) {
            throw FieldError(field: unknown.key, message: "is not a fault field (known: \(known.sorted().joined(separator: ", ")))")
        }
        let actionName = try Self.string(object, "action") ?? "respond"
        let reason = try Self.string(object, "reason").map { Reason($0) }
        switch actionName {
        case "respond":
            let status = try Self.int(object, "status", in: 400...599)
            guard let resolvedStatus = status ?? reason?.status else {
                throw FieldError(field: "status", message: "is required with action 'respond' unless 'reason' is a known APNs reason")
            }
            let resolvedReason = reason ?? Self.defaultReason(status: resolvedStatus)
            action = .respond(status: resolvedStatus, reason: resolvedReason)
        case "goaway":
            action = .goAway(reason: reason ?? .shutdown)
        case "reset":
            let code = try Self.int(object, "error-code", in: 0...Int(UInt32.max)) ?? Int(HTTP2ErrorCode.internalError.rawValue)
            action = .reset(HTTP2ErrorCode(rawValue: UInt32(code)))
        case "disconnect":
            action = .disconnect
        case "delay":
            action = .delay
        default:
            throw FieldError(field: "action", message: "must be respond, goaway, reset, disconnect or delay, not '\(actionName)'")
        }
        let count = try Self.int(object, "count", in: 1...Int(Int32.max))
        if let fraction = object["fraction"] {
            guard count == nil else { throw FieldError(field: "fraction", message: "cannot be combined with 'count'") }
            guard let value = fraction.doubleValue, value > 0, value <= 1 else {
                throw FieldError(field: "fraction", message: "must be a number above 0 and at most 1")
            }
            selection = .fraction(value)
        } else {
            selection = .next(count ?? 1)
        }
        latencyMilliseconds = try Self.int(object, "latency-ms", in: 0...Self.maximumLatencyMilliseconds) ?? 0
        if actionName == "delay", latencyMilliseconds == 0 {
            throw FieldError(field: "latency-ms", message: "is required with action 'delay' (milliseconds, 1-60000)")
        }
        token = try Self.string(object, "token")?.lowercased()
        topic = try Self.string(object, "topic")
    }

    /// What the control API lists.
    public func json(id: Int, applied: Int) -> JSONValue {
        var object = JSONObject()
        object["id"] = .number(JSONNumber(id))
        switch action {
        case .respond(let status, let reason):
            object["action"] = "respond"
            object["status"] = .number(JSONNumber(status))
            object["reason"] = .string(reason.rawValue)
        case .goAway(let reason):
            object["action"] = "goaway"
            object["reason"] = .string(reason.rawValue)
        case .reset(let code):
            object["action"] = "reset"
            object["error-code"] = .number(JSONNumber(Int(code.rawValue)))
        case .disconnect:
            object["action"] = "disconnect"
        case .delay:
            object["action"] = "delay"
        }
        switch selection {
        case .next(let count): object["remaining"] = .number(JSONNumber(count))
        case .fraction(let fraction): object["fraction"] = .number(JSONNumber(fraction) ?? JSONNumber(0))
        }
        object["applied"] = .number(JSONNumber(applied))
        if latencyMilliseconds > 0 { object["latency-ms"] = .number(JSONNumber(latencyMilliseconds)) }
        if let token { object["token"] = .string(token) }
        if let topic { object["topic"] = .string(topic) }
        return .object(object)
    }

    private static func defaultReason(status: Int) -> Reason {
        switch status {
        case 429: .tooManyRequests
        case 503: .serviceUnavailable
        case 500...599: .internalServerError
        default: Reason.allDocumented.first { $0.status == status }?.reason ?? .internalServerError
        }
    }

    private static func string(_ object: JSONObject, _ key: String) throws(FieldError) -> String? {
        guard let value = object[key] else { return nil }
        guard let string = value.stringValue, !string.isEmpty else { throw FieldError(field: key, message: "must be a non-empty string") }
        return string
    }

    private static func int(_ object: JSONObject, _ key: String, in range: ClosedRange<Int>) throws(FieldError) -> Int? {
        guard let value = object[key] else { return nil }
        guard let int = value.intValue, range.contains(int) else {
            throw FieldError(field: key, message: "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return int
    }
}
