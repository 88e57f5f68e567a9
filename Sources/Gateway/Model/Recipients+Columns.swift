import APNs

extension NotificationRequest.Recipients {
    /// The recipients as three columns: a kind (the API's field name), a list of strings, and the
    /// push-to-start attributes type. Lists lose their repeats here, keeping the first of each.
    public var columns: (kind: String, values: [String], detail: String?) {
        switch self {
        case .tokens(let tokens): ("tokens", Self.unique(tokens.map(\.hex)), nil)
        case .users(let users): ("users", Self.unique(users), nil)
        case .tags(let tags): ("tags", Self.unique(tags), nil)
        case .activity(let id): ("activity", [id], nil)
        case .pushToStart(let users, let type): ("push-to-start", Self.unique(users), type)
        case .channel(let id): ("channel", [id.value], nil)
        }
    }

    /// The recipients stored as `columns`; nil when they do not make one (a row changed outside Herald).
    public init?(kind: String, values: [String], detail: String?) {
        switch kind {
        case "tokens":
            var tokens: [DeviceToken] = []
            for value in values {
                guard let token = try? DeviceToken(hex: value) else { return nil }
                tokens.append(token)
            }
            self = .tokens(tokens)
        case "users": self = .users(values)
        case "tags": self = .tags(values)
        case "activity":
            guard values.count == 1 else { return nil }
            self = .activity(values[0])
        case "push-to-start":
            guard let detail else { return nil }
            self = .pushToStart(users: values, attributesType: detail)
        case "channel":
            guard values.count == 1, let id = try? ChannelID(values[0]) else { return nil }
            self = .channel(id)
        default: return nil
        }
    }

    /// `values` as a JSON array of strings, as the stores keep lists.
    public static func encodeList(_ values: [String]) -> String {
        JSONValue.array(values.map(JSONValue.string)).encodedString
    }

    /// A JSON array of strings back; nil when the text is not one.
    public static func decodeList(_ text: String) -> [String]? {
        guard let array = (try? JSONValue(parsing: text))?.arrayValue else { return nil }
        var values: [String] = []
        for element in array {
            guard let string = element.stringValue else { return nil }
            values.append(string)
        }
        return values
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}

extension NotificationRequest.Recipients {
    /// The same recipients with repeats dropped, as every store keeps them.
    public var normalized: Self {
        let columns = columns
        return Self(kind: columns.kind, values: columns.values, detail: columns.detail) ?? self
    }
}
