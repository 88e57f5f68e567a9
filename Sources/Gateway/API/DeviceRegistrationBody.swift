import APNs

/// The body of `PUT /v1/apps/{bundle-id}/devices/{token}`: every field optional, unknown fields
/// refused (a misspelt `appVersion` should not vanish silently), `null` as good as absent.
struct DeviceRegistrationBody: Equatable {
    var environment: Environment?
    var user: String?
    var tags: [String] = []
    var locale: String?
    var appVersion: String?

    static let fields = ["environment", "user", "tags", "locale", "app-version"]

    /// Parses `bytes` (empty: all defaults); the error names the field and the rule.
    init(parsing bytes: [UInt8]) throws(GatewayAPIError) {
        try self.init(try GatewayJSONBody(parsing: bytes, fields: Self.fields, kind: "device"))
    }

    /// Reads the fields of a body parsed already (`devices import` reads a line with more fields).
    init(_ body: GatewayJSONBody) throws(GatewayAPIError) {
        if let text = try body.string("environment") {
            do {
                environment = try Environment(text)
            } catch {
                throw .badRequest(error)
            }
        }
        user = try body.string("user")
        locale = try body.string("locale")
        appVersion = try body.string("app-version")
        if let value = body.object["tags"], !value.isNull {
            guard let array = value.arrayValue else {
                throw .badRequest(field: "tags", "is \(value.kindDescription); send an array of strings")
            }
            for (index, element) in array.enumerated() {
                guard let tag = element.stringValue, !tag.isEmpty else {
                    throw .badRequest(
                        field: "tags[\(index)]", "is \(element.kindDescription); a tag is a non-empty string")
                }
                tags.append(tag)
            }
        }
    }

    static let schema: JSONValue = [
        "type": "object",
        "additionalProperties": false,
        "properties": [
            "environment": ["type": "string", "enum": ["sandbox", "production"]],
            "user": ["type": "string"],
            "tags": ["type": "array", "items": ["type": "string"]],
            "locale": ["type": "string"],
            "app-version": ["type": "string"],
        ],
    ]
}

extension Device {
    /// The API's view of a device (docs/GATEWAY.md, "HTTP API").
    var json: JSONValue {
        func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
        return [
            "token": .string(token.hex),
            "environment": .string(environment.rawValue),
            "user": optional(user),
            "tags": .array(tags.map(JSONValue.string)),
            "locale": optional(registration.locale),
            "app-version": optional(registration.appVersion),
            "registered-at": .number(JSONNumber(registeredAt)),
            "status": .string(status.rawValue),
            "status-reason": optional(statusReason),
        ]
    }
}
