import APNs

/// The body of `POST /v1/apps/{bundle-id}/channels`: `{"message-storage-policy": 0 | 1 (required),
/// "environment"}`. The push type is APNs's only one for channels (`LiveActivity`), so it is not asked for.
struct ChannelCreationBody: Equatable {
    var storagePolicy: MessageStoragePolicy
    var environment: Environment

    static let fields = ["message-storage-policy", "environment"]

    init(parsing bytes: [UInt8], app: App) throws(GatewayAPIError) {
        let body = try GatewayJSONBody(parsing: bytes, fields: Self.fields, kind: "channel")
        guard let value = body.object["message-storage-policy"], !value.isNull else {
            throw .badRequest(
                field: "message-storage-policy", "is missing; use 0 (no storage) or 1 (most recent message)")
        }
        guard let number = value.intValue, let policy = MessageStoragePolicy(rawValue: number) else {
            throw .badRequest(
                field: "message-storage-policy",
                "is \(value.kindDescription) \(value.encodedString); use the number 0 (no storage) or 1 (most recent message)"
            )
        }
        storagePolicy = policy
        environment = try body.environment(for: app)
    }

    static let schema: JSONValue = [
        "type": "object",
        "additionalProperties": false,
        "required": ["message-storage-policy"],
        "properties": [
            "message-storage-policy": ["type": "integer", "enum": [0, 1]],
            "environment": ["type": "string", "enum": ["sandbox", "production"]],
        ],
    ]
}

/// A channel as the API writes it (docs/GATEWAY.md, `gateway-channel`).
struct GatewayChannel {
    var channelID: ChannelID
    /// nil in lists: APNs's list names ids only.
    var storagePolicy: MessageStoragePolicy?
    var environment: Environment

    var json: JSONValue {
        var object = JSONObject()
        object.append(key: "channel-id", value: .string(channelID.value))
        if let storagePolicy {
            object.append(key: "message-storage-policy", value: .number(JSONNumber(storagePolicy.rawValue)))
        }
        object.append(key: "environment", value: .string(environment.rawValue))
        return .object(object)
    }
}
