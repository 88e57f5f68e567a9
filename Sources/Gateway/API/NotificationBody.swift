import APNs

/// The body of `POST /v1/apps/{bundle-id}/notifications`, parsed into a ``NotificationRequest``
/// with APNs's own types, so a value the gateway accepts is one APNs accepts:
///
/// ```
/// {"to": {"tokens":[...]} | {"users":[...]} | {"tags":[...]} | {"activity":"id"}
///        | {"push-to-start":{"users":[...],"attributes-type":"..."}} | {"channel":"id"},
///  "push-type", "priority", "expiration", "collapse-id", "payload":{...}, "send-at", "environment"}
/// ```
/// Only `to` and `payload` are required. The push type defaults to `liveactivity` for an activity,
/// push-to-start tokens and a channel (the only type they take), else to `alert`.
enum NotificationBody {
    static let fields = [
        "to", "push-type", "priority", "expiration", "collapse-id", "payload", "send-at", "environment",
    ]
    static let recipientFields = ["tokens", "users", "tags", "activity", "push-to-start", "channel"]

    /// Parses `bytes` into a request for `app`; the error names the field and the rule.
    static func request(parsing bytes: [UInt8], app: App, idempotencyKey: String?) throws(GatewayAPIError)
        -> NotificationRequest
    {
        let object = try BodyFields.object(bytes)
        try BodyFields.refuseRepeatsAndUnknown(object, at: "", allowed: fields)
        let to = try recipients(object)
        guard let payload = object["payload"], !payload.isNull else {
            throw .badRequest(field: "payload", "is missing; send the notification's JSON object")
        }
        guard payload.objectValue != nil else {
            throw .badRequest(field: "payload", "is \(payload.kindDescription); a payload is a JSON object")
        }
        let pushType = try self.pushType(object, to: to)
        let environment = try self.environment(object, app: app)
        return NotificationRequest(
            bundleID: app.bundleID, to: to, pushType: pushType, priority: try priority(object),
            expiration: try expiration(object), collapseID: try collapseID(object), payload: payload.encoded(),
            sendAt: try sendAt(object), idempotencyKey: idempotencyKey, environment: environment)
    }

    private static func recipients(_ object: JSONObject) throws(GatewayAPIError) -> NotificationRequest.Recipients {
        let choices = recipientFields.joined(separator: ", ")
        guard let value = object["to"], !value.isNull else {
            throw .badRequest(field: "to", "is missing; send an object with one of \(choices)")
        }
        guard let to = value.objectValue else {
            throw .badRequest(field: "to", "is \(value.kindDescription); send an object with one of \(choices)")
        }
        try BodyFields.refuseRepeatsAndUnknown(to, at: "to.", allowed: recipientFields)
        guard to.count == 1, let kind = to.keys.first else {
            throw .badRequest(field: "to", "names \(to.count) kinds of recipient; name exactly one of \(choices)")
        }
        switch kind {
        case "tokens":
            let texts = try BodyFields.strings(to, kind, at: "to.") ?? []
            var tokens: [DeviceToken] = []
            tokens.reserveCapacity(texts.count)
            for (index, text) in texts.enumerated() {
                do {
                    tokens.append(try DeviceToken(hex: text))
                } catch {
                    throw .badRequest(field: "to.tokens[\(index)]", error.message)
                }
            }
            return .tokens(tokens)
        case "users": return .users(try BodyFields.strings(to, kind, at: "to.") ?? [])
        case "tags": return .tags(try BodyFields.strings(to, kind, at: "to.") ?? [])
        case "activity":
            guard let id = try BodyFields.string(to, kind, at: "to.") else {
                throw .badRequest(field: "to.activity", "is null; send the activity's id")
            }
            return .activity(id)
        case "push-to-start":
            guard let value = to[kind], let start = value.objectValue else {
                throw .badRequest(
                    field: "to.push-to-start",
                    "is \(to[kind]?.kindDescription ?? "missing"); send {\"users\":[...],\"attributes-type\":\"...\"}")
            }
            let prefix = "to.push-to-start."
            try BodyFields.refuseRepeatsAndUnknown(start, at: prefix, allowed: ["users", "attributes-type"])
            guard let users = try BodyFields.strings(start, "users", at: prefix) else {
                throw .badRequest(field: prefix + "users", "is missing; send the users whose tokens start it")
            }
            guard let type = try BodyFields.string(start, "attributes-type", at: prefix) else {
                throw .badRequest(
                    field: prefix + "attributes-type", "is missing; send the ActivityAttributes type name")
            }
            return .pushToStart(users: users, attributesType: type)
        default:
            guard let text = try BodyFields.string(to, kind, at: "to.") else {
                throw .badRequest(field: "to.channel", "is null; send the channel's id")
            }
            do {
                return .channel(try ChannelID(text))
            } catch {
                throw .badRequest(field: "to.channel", error.message)
            }
        }
    }

    private static func pushType(_ object: JSONObject, to: NotificationRequest.Recipients) throws(GatewayAPIError)
        -> PushType
    {
        let liveActivity: Bool
        switch to {
        case .activity, .pushToStart, .channel: liveActivity = true
        case .tokens, .users, .tags: liveActivity = false
        }
        guard let text = try BodyFields.string(object, "push-type") else {
            return liveActivity ? .liveactivity : .alert
        }
        let pushType: PushType
        do {
            pushType = try PushType(headerValue: text)
        } catch {
            throw .badRequest(field: "push-type", error.message)
        }
        if liveActivity, pushType != .liveactivity {
            throw .badRequest(
                field: "push-type", "is \(pushType); a notification to \(to.columns.kind) is liveactivity (or omit it)")
        }
        return pushType
    }

    private static func priority(_ object: JSONObject) throws(GatewayAPIError) -> Priority? {
        guard let value = try BodyFields.integer(object, "priority", minimum: .min, unit: "10, 5 or 1") else {
            return nil
        }
        do {
            return try Priority(headerValue: String(value))
        } catch {
            throw .badRequest(field: "priority", error.message)
        }
    }

    private static func expiration(_ object: JSONObject) throws(GatewayAPIError) -> Expiration? {
        let unit = "UNIX seconds until which APNs may store it, or 0 to never store"
        guard let value = try BodyFields.integer(object, "expiration", unit: unit) else { return nil }
        do {
            return try Expiration(headerValue: String(value))
        } catch {
            throw .badRequest(field: "expiration", error.message)
        }
    }

    private static func collapseID(_ object: JSONObject) throws(GatewayAPIError) -> CollapseID? {
        guard let text = try BodyFields.string(object, "collapse-id") else { return nil }
        do {
            return try CollapseID(text)
        } catch {
            throw .badRequest(field: "collapse-id", error.message)
        }
    }

    /// Milliseconds since 1970; a value that reads as seconds (before 1973 in milliseconds) is refused
    /// rather than sent at once as a time long past.
    private static func sendAt(_ object: JSONObject) throws(GatewayAPIError) -> Int? {
        guard let value = try BodyFields.integer(object, "send-at", unit: "milliseconds since 1970") else {
            return nil
        }
        guard value >= 100_000_000_000 else {
            throw .badRequest(field: "send-at", "is \(value), which reads as seconds; send milliseconds since 1970")
        }
        return value
    }

    private static func environment(_ object: JSONObject, app: App) throws(GatewayAPIError) -> Environment {
        try GatewayJSONBody.environment(try BodyFields.string(object, "environment"), for: app)
    }

    static let schema: JSONValue = [
        "type": "object",
        "additionalProperties": false,
        "required": ["to", "payload"],
        "properties": [
            "to": [
                "type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": false,
                "properties": [
                    "tokens": ["type": "array", "items": ["type": "string"]],
                    "users": ["type": "array", "items": ["type": "string"]],
                    "tags": ["type": "array", "items": ["type": "string"]],
                    "activity": ["type": "string"],
                    "push-to-start": [
                        "type": "object", "required": ["users", "attributes-type"],
                        "properties": [
                            "users": ["type": "array", "items": ["type": "string"]],
                            "attributes-type": ["type": "string"],
                        ],
                    ],
                    "channel": ["type": "string"],
                ],
            ],
            "push-type": ["type": "string", "enum": .array(PushType.allCases.map { .string($0.rawValue) })],
            "priority": ["type": "integer", "enum": [10, 5, 1]],
            "expiration": ["type": "integer", "minimum": 0],
            "collapse-id": ["type": "string"],
            "payload": ["type": "object"],
            "send-at": ["type": "integer"],
            "environment": ["type": "string", "enum": ["sandbox", "production"]],
        ],
    ]
}
