import APNs

/// The body of `PUT /v1/apps/{bundle-id}/live-activities/push-to-start/{token}`:
/// `{"attributes-type" (required), "user", "environment"}`.
struct PushToStartBody: Equatable {
    var attributesType: String
    var user: String?
    var environment: Environment

    static let fields = ["attributes-type", "user", "environment"]

    init(parsing bytes: [UInt8], app: App) throws(GatewayAPIError) {
        let body = try GatewayJSONBody(parsing: bytes, fields: Self.fields, kind: "push-to-start")
        attributesType = try body.requiredString("attributes-type")
        if attributesType.utf8.count > LiveActivityRules.maximumLength {
            throw .badRequest(
                field: "attributes-type",
                "is \(attributesType.utf8.count) bytes; at most \(LiveActivityRules.maximumLength) (a type name)")
        }
        user = try body.string("user")
        environment = try body.environment(for: app)
    }

    static let schema: JSONValue = [
        "type": "object",
        "additionalProperties": false,
        "required": ["attributes-type"],
        "properties": [
            "attributes-type": ["type": "string", "description": "the ActivityAttributes type name"],
            "user": ["type": "string"],
            "environment": ["type": "string", "enum": ["sandbox", "production"]],
        ],
    ]
}

/// The body of `PUT /v1/apps/{bundle-id}/live-activities/{activity-id}`:
/// `{"token" (required, the activity's update token), "user", "environment"}`.
struct ActivityTokenBody: Equatable {
    var token: DeviceToken
    var user: String?
    var environment: Environment

    static let fields = ["token", "user", "environment"]

    init(parsing bytes: [UInt8], app: App) throws(GatewayAPIError) {
        let body = try GatewayJSONBody(parsing: bytes, fields: Self.fields, kind: "live activity")
        let hex = try body.requiredString("token")
        do {
            token = try DeviceToken(hex: hex)
        } catch {
            throw .badRequest(error)
        }
        user = try body.string("user")
        environment = try body.environment(for: app)
    }

    static let schema: JSONValue = [
        "type": "object",
        "additionalProperties": false,
        "required": ["token"],
        "properties": [
            "token": ["type": "string", "description": "the activity's update token, hex"],
            "user": ["type": "string"],
            "environment": ["type": "string", "enum": ["sandbox", "production"]],
        ],
    ]
}

/// What an activity id in a path may be: the app's own id for the activity (`Activity.id`, a UUID
/// in practice), kept as given.
enum LiveActivityRules {
    /// Bytes of UTF-8, for activity ids and attributes type names.
    static let maximumLength = 256

    /// The id, or an error naming `activity-id` and the rule it breaks.
    static func activityID(_ text: String?) throws(GatewayAPIError) -> String {
        guard let text, !text.isEmpty else { throw .badRequest(field: "activity-id", "is empty") }
        guard text.utf8.count <= maximumLength else {
            throw .badRequest(field: "activity-id", "is \(text.utf8.count) bytes; at most \(maximumLength)")
        }
        guard !text.contains("/") else {
            throw .badRequest(field: "activity-id", "contains '/' (sent as %2F); an activity id has none")
        }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .badRequest(field: "activity-id", "contains a control character")
        }
        return text
    }
}

extension PushToStartToken {
    /// The API's view of a push-to-start token (docs/GATEWAY.md, `gateway-push-to-start-token`).
    var json: JSONValue {
        [
            "token": .string(token.hex),
            "environment": .string(environment.rawValue),
            "user": GatewayJSONBody.optional(user),
            "attributes-type": .string(attributesType),
            "registered-at": .number(JSONNumber(registeredAt)),
            "status": .string(status.rawValue),
            "status-reason": GatewayJSONBody.optional(statusReason),
        ]
    }
}

extension ActivityToken {
    /// The API's view of an activity's update token (docs/GATEWAY.md, `gateway-activity`).
    var json: JSONValue {
        [
            "activity-id": .string(activityID),
            "token": .string(token.hex),
            "environment": .string(environment.rawValue),
            "user": GatewayJSONBody.optional(user),
            "registered-at": .number(JSONNumber(registeredAt)),
            "status": .string(status.rawValue),
            "status-reason": GatewayJSONBody.optional(statusReason),
        ]
    }
}
