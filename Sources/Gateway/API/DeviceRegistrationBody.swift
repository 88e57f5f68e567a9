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
        guard !bytes.isEmpty else { return }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            throw .badRequest(field: "body", "is not JSON: \(error)")
        }
        guard let object = value.objectValue else {
            throw .badRequest(field: "body", "is \(value.kindDescription); send a JSON object")
        }
        if let duplicate = object.duplicateKeys.first {
            throw .badRequest(field: duplicate, "appears twice")
        }
        for key in object.keys where !Self.fields.contains(key) {
            throw .badRequest(field: key, "is not a device field; use \(Self.fields.joined(separator: ", "))")
        }
        if let text = try Self.string(object, "environment") {
            do {
                environment = try Environment(text)
            } catch {
                throw .badRequest(error)
            }
        }
        user = try Self.string(object, "user")
        locale = try Self.string(object, "locale")
        appVersion = try Self.string(object, "app-version")
        if let value = object["tags"], !value.isNull {
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

    /// A non-empty string, or nil when absent or null.
    private static func string(_ object: JSONObject, _ key: String) throws(GatewayAPIError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let text = value.stringValue else {
            throw .badRequest(field: key, "is \(value.kindDescription); send a string")
        }
        guard !text.isEmpty else { throw .badRequest(field: key, "is empty; omit it or send a value") }
        return text
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
