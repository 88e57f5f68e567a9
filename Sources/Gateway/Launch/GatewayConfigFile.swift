// `herald gateway --config FILE`: several apps, each with its credentials and the environments it
// sends to (docs/GATEWAY.md, "Command line"; Examples/gateway-config.json):
//
//   {
//     "apps": [
//       { "bundle-id": "com.example.app",
//         "auth-key": "AuthKey_ABC123DEFG.p8", "key-id": "ABC123DEFG", "team-id": "DEF123GHIJ",
//         "environments": { "sandbox": {}, "production": {} } },
//       { "bundle-id": "com.example.other",
//         "environments": {
//           "sandbox": { "endpoint": "https://localhost:2197", "ca-file": "herald-data/ca.pem",
//                        "cert": "dev.p12", "cert-password": "secret" } } }
//     ]
//   }
//
// The credential fields are `herald send`'s flags without dashes. An environment that names any
// credential field uses its own credentials alone; otherwise the app's. `ca-file` and `proxy` are
// taken from the environment, else the app. Relative paths are read from the file's directory.
import APNs
import APNsClient

/// The apps a gateway config file configures.
///
/// Thread-safety: a value type; `Sendable`.
public struct GatewayConfigFile: Sendable {
    public var apps: [GatewayAppSettings]

    public init(apps: [GatewayAppSettings]) {
        self.apps = apps
    }

    static let credentialFields = ["auth-key", "key-id", "team-id", "cert", "cert-key", "cert-password"]
    static let connectionFields = ["ca-file", "proxy"]

    /// Parses the file's bytes (`path` resolves relative paths and names the file in errors); errors
    /// name the field (`apps[1].auth-key`) and the rule. Reads no other file.
    public init(bytes: [UInt8], path: String) throws(FieldError) {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: bytes)
        } catch {
            throw FieldError(field: path, message: "is not valid JSON: \(error)")
        }
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        guard let root = json.objectValue else {
            throw FieldError(field: "(root)", message: "must be a JSON object with \"apps\"")
        }
        try Self.onlyKnown(root, ["apps"], at: "")
        guard let list = root["apps"]?.arrayValue, !list.isEmpty else {
            throw FieldError(field: "apps", message: "must be a non-empty array of apps")
        }
        var apps: [GatewayAppSettings] = []
        for (index, value) in list.enumerated() {
            let app = try Self.app(value, at: "apps[\(index)]", directory: directory)
            if let first = apps.firstIndex(where: { $0.bundleID == app.bundleID }) {
                throw FieldError(
                    field: "apps[\(index)].bundle-id",
                    message: "'\(app.bundleID)' is configured in apps[\(first)] already; give each app once")
            }
            apps.append(app)
        }
        self.apps = apps
    }

    private static func app(_ value: JSONValue, at: String, directory: String) throws(FieldError) -> GatewayAppSettings
    {
        guard let object = value.objectValue else { throw FieldError(field: at, message: "must be an object") }
        try onlyKnown(object, ["bundle-id", "environments"] + credentialFields + connectionFields, at: at)
        guard let bundleID = object["bundle-id"]?.stringValue else {
            throw FieldError(field: at + ".bundle-id", message: "is required: the app's bundle id (its topic)")
        }
        if let problem = Topic.bundleIDProblem(bundleID) {
            throw FieldError(field: at + ".bundle-id", message: problem)
        }
        guard let environments = object["environments"]?.objectValue, !environments.keys.isEmpty else {
            throw FieldError(
                field: at + ".environments",
                message: "is required: an object with \"sandbox\", \"production\" or both, e.g. {\"production\": {}}")
        }
        try onlyKnown(environments, Environment.allCases.map(\.rawValue), at: at + ".environments")
        var settings: [Environment: APNsClientSettings] = [:]
        for environment in Environment.allCases {
            guard let entry = environments[environment.rawValue] else { continue }
            let entryAt = "\(at).environments.\(environment)"
            guard let fields = entry.objectValue else { throw FieldError(field: entryAt, message: "must be an object") }
            try onlyKnown(fields, ["endpoint"] + credentialFields + connectionFields, at: entryAt)
            let ownCredentials = credentialFields.contains { fields[$0] != nil }
            let credentialsAt = ownCredentials ? entryAt : at
            let credentials = try self.credentials(
                ownCredentials ? fields : object, at: credentialsAt, directory: directory, environment: environment)
            let endpoint = try self.endpoint(fields, at: entryAt, environment: environment)
            let caFileAt = fields["ca-file"] != nil ? entryAt : at
            let caFile = try string(fields["ca-file"] != nil ? fields : object, "ca-file", at: caFileAt)
            let proxyAt = fields["proxy"] != nil ? entryAt : at
            let proxy = try string(fields["proxy"] != nil ? fields : object, "proxy", at: proxyAt)
            settings[environment] = APNsClientSettings(
                credentials: credentials, endpoint: endpoint, caFile: caFile.map { resolve($0, in: directory) },
                proxy: proxy, connections: GatewayAppSettings.defaultConnections,
                names: .init(authKey: credentialsAt + ".auth-key", caFile: caFileAt + ".ca-file"))
        }
        return GatewayAppSettings(bundleID: bundleID, environments: settings)
    }

    private static func credentials(
        _ object: JSONObject, at: String, directory: String, environment: Environment
    ) throws(FieldError) -> APNsClientSettings.Credentials {
        if let cert = try string(object, "cert", at: at) {
            if let field = ["auth-key", "key-id", "team-id"].first(where: { object[$0] != nil }) {
                throw FieldError(
                    field: "\(at).\(field)",
                    message: "cannot be combined with \"cert\"; choose token or certificate auth")
            }
            return .certificate(
                path: resolve(cert, in: directory),
                keyPath: try string(object, "cert-key", at: at).map { resolve($0, in: directory) },
                password: try string(object, "cert-password", at: at))
        }
        if object["cert-key"] != nil || object["cert-password"] != nil {
            let field = object["cert-key"] != nil ? "cert-key" : "cert-password"
            throw FieldError(field: "\(at).\(field)", message: "belongs to a \"cert\", and none is given")
        }
        guard let authKey = try string(object, "auth-key", at: at) else {
            throw FieldError(
                field: at + ".auth-key",
                message: "is required for \(environment): \"auth-key\" with \"key-id\" and \"team-id\", or \"cert\"")
        }
        return .token(
            authKeyPath: resolve(authKey, in: directory), keyID: try identifier(object, "key-id", at: at),
            teamID: try identifier(object, "team-id", at: at))
    }

    /// The environment's `endpoint`, else Apple's host for it.
    private static func endpoint(
        _ object: JSONObject, at: String, environment: Environment
    ) throws(FieldError) -> APNsEndpoint {
        guard let text = try string(object, "endpoint", at: at) else {
            return environment == .sandbox ? .sandbox : .production
        }
        guard text.hasPrefix("https://") || text.hasPrefix("http://") else {
            throw FieldError(field: at + ".endpoint", message: "needs a scheme: https://\(text) (or http:// for h2c)")
        }
        do {
            return try APNsEndpoint(url: text)
        } catch {
            throw FieldError(field: at + ".endpoint", message: "\(error)")
        }
    }

    private static func string(_ object: JSONObject, _ name: String, at: String) throws(FieldError) -> String? {
        guard let value = object[name] else { return nil }
        guard let text = value.stringValue, !text.isEmpty else {
            throw FieldError(field: "\(at).\(name)", message: "must be a non-empty string")
        }
        return text
    }

    private static func identifier(_ object: JSONObject, _ name: String, at: String) throws(FieldError) -> String {
        guard let value = try string(object, name, at: at) else {
            throw FieldError(field: "\(at).\(name)", message: "is required with \"auth-key\": the 10-character ID")
        }
        guard value.utf8.count == 10, value.utf8.allSatisfy({ (48...57).contains($0) || (65...90).contains($0) }) else {
            throw FieldError(field: "\(at).\(name)", message: "must be 10 characters, A-Z and 0-9, not '\(value)'")
        }
        return value
    }

    private static func resolve(_ path: String, in directory: String) -> String {
        path.hasPrefix("/") ? path : directory + "/" + path
    }

    private static func onlyKnown(_ object: JSONObject, _ known: [String], at: String) throws(FieldError) {
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            let place = at.isEmpty ? unknown : "\(at).\(unknown)"
            throw FieldError(field: place, message: "is not a known field (known: \(known.joined(separator: ", ")))")
        }
    }
}

/// One app the gateway serves and the APNs client settings of each environment it sends to.
///
/// Thread-safety: a value type; `Sendable`.
public struct GatewayAppSettings: Sendable {
    /// Connections each client opens at most: one serves thousands of notifications a second; the
    /// second keeps sends going while one reconnects.
    public static let defaultConnections = 2

    public var bundleID: String
    /// Never empty once parsed.
    public var environments: [Environment: APNsClientSettings]

    public init(bundleID: String, environments: [Environment: APNsClientSettings]) {
        self.bundleID = bundleID
        self.environments = environments
    }

    /// The API's view of the app. Throws when the bundle id is malformed or no environment is set.
    public func app() throws(FieldError) -> App {
        try App(bundleID: bundleID, environments: Set(environments.keys))
    }
}
