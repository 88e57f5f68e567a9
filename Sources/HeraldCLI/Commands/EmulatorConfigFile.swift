import APNs
import Emulator

/// `herald emulator --config FILE`: the teams and keys an emulator trusts, for more than the one
/// key the flags can give.
///
///     {
///       "teams": [
///         { "team-id": "DEF123GHIJ", "topics": ["com.example.app"],
///           "keys": [ { "key-id": "ABC123DEFG", "auth-key": "AuthKey_ABC123DEFG.p8", "environment": "both" } ] },
///         { "team-id": "XYZ987WVUT",
///           "keys": [ { "key-id": "QRS456TUVW", "public-key": "qrs.pub.pem", "environment": "sandbox" } ] }
///       ]
///     }
///
/// A key is a team's .p8 (`auth-key`) or just its public half (`public-key`, PEM). The names files
/// were written with before Herald's JSON was all kebab-case (`teamId`, `keyId`, `authKey`,
/// `publicKey`) are still read. Relative paths are
/// read from the config file's directory. `topics` (optional) are the bundle ids the team owns: its
/// tokens are refused for others (403 InvalidProviderToken), and pushes to a topic no team owns get
/// 400 TopicDisallowed. `environment` (sandbox, production or both, the default) limits a key as
/// Apple can: used in the other environment it gets 403 BadEnvironmentKeyIdInToken.
struct EmulatorConfigFile: Equatable {
    struct Key: Equatable {
        var teamID: String
        var keyID: String
        /// The file, resolved against the config file's directory.
        var path: String
        var isPublicKey: Bool
        var environment: EmulatorConfiguration.ProviderKey.Environment
        var topics: [String]
    }

    var keys: [Key] = []

    /// Every topic named, or nil when some team may push to any topic.
    var allTopics: Set<String>? {
        keys.contains { $0.topics.isEmpty } ? nil : Set(keys.flatMap(\.topics))
    }

    /// Parses the file's bytes; errors name the JSON path and the rule.
    init(bytes: [UInt8], path: String) throws(FieldError) {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: bytes)
        } catch {
            throw FieldError(field: path, message: "is not valid JSON: \(error)")
        }
        let directory = path.contains("/") ? String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) : "."
        guard let root = json.objectValue else {
            throw FieldError(field: "(root)", message: "must be a JSON object with \"teams\"")
        }
        try Self.onlyKnown(root, ["teams"], at: "")
        guard let teams = root["teams"]?.arrayValue, !teams.isEmpty else {
            throw FieldError(field: "teams", message: "must be a non-empty array of teams")
        }
        for (teamIndex, teamValue) in teams.enumerated() {
            let at = "teams[\(teamIndex)]"
            guard let teamObject = teamValue.objectValue else {
                throw FieldError(field: at, message: "must be an object")
            }
            let team = try Self.renamingOld(teamObject, at: at)
            try Self.onlyKnown(team, ["team-id", "topics", "keys"], at: at)
            let teamID = try Self.identifier(team, "team-id", at: at)
            var topics: [String] = []
            if let list = team["topics"] {
                guard let array = list.arrayValue else {
                    throw FieldError(field: at + ".topics", message: "must be an array of bundle ids")
                }
                for (index, value) in array.enumerated() {
                    guard let text = value.stringValue, let topic = try? Topic(text) else {
                        throw FieldError(
                            field: "\(at).topics[\(index)]", message: "must be a bundle id such as \"com.example.app\"")
                    }
                    // A topic with a push-type suffix names its app: keys are checked by bundle id.
                    topics.append(topic.bundleID)
                }
            }
            guard let keyList = team["keys"]?.arrayValue, !keyList.isEmpty else {
                throw FieldError(field: at + ".keys", message: "must be a non-empty array of keys")
            }
            for (keyIndex, keyValue) in keyList.enumerated() {
                let keyAt = "\(at).keys[\(keyIndex)]"
                guard let keyObject = keyValue.objectValue else {
                    throw FieldError(field: keyAt, message: "must be an object")
                }
                let key = try Self.renamingOld(keyObject, at: keyAt)
                try Self.onlyKnown(key, ["key-id", "auth-key", "public-key", "environment"], at: keyAt)
                let keyID = try Self.identifier(key, "key-id", at: keyAt)
                let authKey = key["auth-key"]?.stringValue
                let publicKey = key["public-key"]?.stringValue
                guard (authKey == nil) != (publicKey == nil), let file = authKey ?? publicKey, !file.isEmpty else {
                    throw FieldError(
                        field: keyAt,
                        message: "needs exactly one of \"auth-key\" (a .p8 file) or \"public-key\" (a PEM file)")
                }
                var environment = EmulatorConfiguration.ProviderKey.Environment.both
                if let value = key["environment"] {
                    guard let text = value.stringValue,
                        let parsed = EmulatorConfiguration.ProviderKey.Environment(rawValue: text)
                    else {
                        throw FieldError(
                            field: keyAt + ".environment", message: "must be \"sandbox\", \"production\" or \"both\"")
                    }
                    environment = parsed
                }
                if keys.contains(where: { $0.keyID == keyID }) {
                    throw FieldError(field: keyAt + ".key-id", message: "'\(keyID)' appears twice; key ids are unique")
                }
                keys.append(
                    Key(
                        teamID: teamID, keyID: keyID, path: file.hasPrefix("/") ? file : directory + "/" + file,
                        isPublicKey: publicKey != nil, environment: environment, topics: topics))
            }
        }
    }

    private static func identifier(_ object: JSONObject, _ name: String, at: String) throws(FieldError) -> String {
        guard let value = object[name]?.stringValue else {
            throw FieldError(
                field: "\(at).\(name)", message: "is required: the 10-character ID from the developer account")
        }
        guard value.utf8.count == 10, value.utf8.allSatisfy({ (48...57).contains($0) || (65...90).contains($0) }) else {
            throw FieldError(field: "\(at).\(name)", message: "must be 10 characters, A-Z and 0-9, not '\(value)'")
        }
        return value
    }

    /// The names of the first files (camelCase), read as today's.
    static let oldNames = ["teamId": "team-id", "keyId": "key-id", "authKey": "auth-key", "publicKey": "public-key"]

    /// `object` with its old names replaced by today's; both spellings of one field is an error.
    private static func renamingOld(_ object: JSONObject, at: String) throws(FieldError) -> JSONObject {
        var renamed = JSONObject()
        for member in object.members {
            guard let new = oldNames[member.key] else {
                renamed[member.key] = member.value
                continue
            }
            guard object[new] == nil else {
                throw FieldError(field: "\(at).\(member.key)", message: "is the old name of \"\(new)\"; give only one")
            }
            renamed[new] = member.value
        }
        return renamed
    }

    private static func onlyKnown(_ object: JSONObject, _ known: [String], at: String) throws(FieldError) {
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            let place = at.isEmpty ? unknown : "\(at).\(unknown)"
            throw FieldError(field: place, message: "is not a known field (known: \(known.joined(separator: ", ")))")
        }
    }
}
