import APNs

/// A request body as the gateway's routes read it: a JSON object whose fields are
/// all known (a misspelt field is refused, not ignored), `null` as good as absent. Each error names
/// the field and the rule.
struct GatewayJSONBody {
    let object: JSONObject

    /// Parses `bytes` (empty: an empty object); `kind` names the body in the unknown-field message.
    init(parsing bytes: [UInt8], fields: [String], kind: String) throws(GatewayAPIError) {
        guard !bytes.isEmpty else {
            object = JSONObject()
            return
        }
        let object = try Self.parseObject(bytes)
        if let duplicate = object.duplicateKeys.first {
            throw .badRequest(field: duplicate, "appears twice")
        }
        for key in object.keys where !fields.contains(key) {
            throw .badRequest(field: key, "is not a \(kind) field; use \(fields.joined(separator: ", "))")
        }
        self.object = object
    }

    /// `bytes` as a JSON object; errors name `body`.
    static func parseObject(_ bytes: [UInt8]) throws(GatewayAPIError) -> JSONObject {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            throw .badRequest(field: "body", "is not JSON: \(error)")
        }
        guard let object = value.objectValue else {
            throw .badRequest(field: "body", "is \(value.kindDescription); send a JSON object")
        }
        return object
    }

    /// A non-empty string, or nil when absent or null.
    func string(_ key: String) throws(GatewayAPIError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let text = value.stringValue else {
            throw .badRequest(field: key, "is \(value.kindDescription); send a string")
        }
        guard !text.isEmpty else { throw .badRequest(field: key, "is empty; omit it or send a value") }
        return text
    }

    /// A string that must be there.
    func requiredString(_ key: String) throws(GatewayAPIError) -> String {
        guard let text = try string(key) else { throw .badRequest(field: key, "is missing; it is required") }
        return text
    }

    /// The environment named by `environment`, else the app's default; it must be one the app is
    /// configured for.
    func environment(for app: App) throws(GatewayAPIError) -> Environment {
        try Self.environment(try string("environment"), for: app)
    }

    /// `text` as an environment of `app` (nil: the app's default).
    static func environment(_ text: String?, for app: App) throws(GatewayAPIError) -> Environment {
        var environment = app.defaultEnvironment
        if let text {
            do {
                environment = try Environment(text)
            } catch {
                throw .badRequest(error)
            }
        }
        guard app.environments.contains(environment) else {
            let configured = app.environments.map(\.rawValue).sorted().joined(separator: ", ")
            throw .badRequest(
                field: "environment", "is \(environment); '\(app.bundleID)' is configured for \(configured) only")
        }
        return environment
    }

    /// The JSON of an optional string: the string, or null.
    static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
}
