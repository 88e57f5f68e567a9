/// The `aps.alert` key: a plain body string, or a dictionary of title, subtitle, body and their
/// localized forms.
public enum Alert: Sendable, Hashable {
    /// `"alert": "text"`: the body alone.
    case body(String)
    /// `"alert": { ... }`.
    case content(AlertContent)

    /// Whether the alert shows the user anything (some title, subtitle or body, plain or localized).
    public var isVisible: Bool {
        switch self {
        case .body(let text): !text.isEmpty
        case .content(let content): content.isVisible
        }
    }
}

/// Text that is either written out or looked up in the app's Localizable.strings
/// (Live Activity alerts allow either for `title` and `body`).
public enum AlertText: Sendable, Hashable, ExpressibleByStringLiteral {
    case plain(String)
    /// `{"loc-key": key, "loc-args": arguments}`; nil arguments leave `loc-args` out.
    case localized(key: String, arguments: [String]?)

    public init(stringLiteral value: String) { self = .plain(value) }

    var isVisible: Bool {
        switch self {
        case .plain(let text): !text.isEmpty
        case .localized(let key, _): !key.isEmpty
        }
    }
}

/// The dictionary form of `aps.alert`. Every key Apple documents, legacy ones included; keys
/// Herald does not know are kept in `extra` so nothing is lost on a round trip.
public struct AlertContent: Sendable, Hashable {
    public var title: AlertText?
    public var subtitle: String?
    public var body: AlertText?
    public var launchImage: String?
    public var titleLocKey: String?
    public var titleLocArgs: [String]?
    public var subtitleLocKey: String?
    public var subtitleLocArgs: [String]?
    public var locKey: String?
    public var locArgs: [String]?
    /// Live Activity alerts carry their sound here (a file name, or "default").
    public var sound: String?
    // Legacy keys, still sent by some providers.
    public var summaryArg: String?
    public var summaryArgCount: Int?
    public var actionLocKey: String?
    public var action: String?
    /// Keys Herald does not model, in order.
    public var extra: JSONObject

    public init(
        title: AlertText? = nil, subtitle: String? = nil, body: AlertText? = nil, launchImage: String? = nil,
        titleLocKey: String? = nil, titleLocArgs: [String]? = nil, subtitleLocKey: String? = nil,
        subtitleLocArgs: [String]? = nil, locKey: String? = nil, locArgs: [String]? = nil, sound: String? = nil,
        summaryArg: String? = nil, summaryArgCount: Int? = nil, actionLocKey: String? = nil, action: String? = nil,
        extra: JSONObject = JSONObject()
    ) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.launchImage = launchImage
        self.titleLocKey = titleLocKey
        self.titleLocArgs = titleLocArgs
        self.subtitleLocKey = subtitleLocKey
        self.subtitleLocArgs = subtitleLocArgs
        self.locKey = locKey
        self.locArgs = locArgs
        self.sound = sound
        self.summaryArg = summaryArg
        self.summaryArgCount = summaryArgCount
        self.actionLocKey = actionLocKey
        self.action = action
        self.extra = extra
    }

    /// Whether anything would be shown: a title, subtitle or body, written out or localized.
    public var isVisible: Bool {
        (title?.isVisible ?? false) || !(subtitle ?? "").isEmpty || (body?.isVisible ?? false)
            || !(titleLocKey ?? "").isEmpty || !(subtitleLocKey ?? "").isEmpty || !(locKey ?? "").isEmpty
    }
}

extension Alert {
    init(json: JSONValue, path: String) throws(FieldError) {
        if let text = json.stringValue {
            self = .body(text)
            return
        }
        let reader = try ObjectReader(json, path: path)
        var content = AlertContent()
        for member in reader.members {
            let (key, value) = (member.key, member.value)
            switch key {
            case "title": content.title = try AlertText(json: value, path: reader.field(key))
            case "subtitle": content.subtitle = try reader.string(key, value)
            case "body": content.body = try AlertText(json: value, path: reader.field(key))
            case "launch-image": content.launchImage = try reader.string(key, value)
            case "title-loc-key": content.titleLocKey = try reader.string(key, value)
            case "title-loc-args": content.titleLocArgs = try reader.strings(key, value)
            case "subtitle-loc-key": content.subtitleLocKey = try reader.string(key, value)
            case "subtitle-loc-args": content.subtitleLocArgs = try reader.strings(key, value)
            case "loc-key": content.locKey = try reader.string(key, value)
            case "loc-args": content.locArgs = try reader.strings(key, value)
            // Only a Live Activity's alert has a sound (a name); on any other push the device ignores
            // the key, so a value of another type is kept like an unknown key, not refused (the
            // linter warns about it there, and errs only for a Live Activity).
            case "sound":
                if let name = value.stringValue { content.sound = name } else { content.extra[key] = value }
            case "summary-arg": content.summaryArg = try reader.string(key, value)
            case "summary-arg-count": content.summaryArgCount = try reader.int(key, value)
            case "action-loc-key": content.actionLocKey = try reader.string(key, value)
            case "action": content.action = try reader.string(key, value)
            default: content.extra[key] = value
            }
        }
        self = .content(content)
    }

    var json: JSONValue {
        switch self {
        case .body(let text):
            return .string(text)
        case .content(let content):
            var writer = ObjectWriter()
            writer.put("title", content.title?.json)
            writer.put("subtitle", content.subtitle)
            writer.put("body", content.body?.json)
            writer.put("launch-image", content.launchImage)
            writer.put("title-loc-key", content.titleLocKey)
            writer.put("title-loc-args", content.titleLocArgs)
            writer.put("subtitle-loc-key", content.subtitleLocKey)
            writer.put("subtitle-loc-args", content.subtitleLocArgs)
            writer.put("loc-key", content.locKey)
            writer.put("loc-args", content.locArgs)
            writer.put("sound", content.sound)
            writer.put("summary-arg", content.summaryArg)
            writer.put("summary-arg-count", content.summaryArgCount)
            writer.put("action-loc-key", content.actionLocKey)
            writer.put("action", content.action)
            writer.merge(content.extra)
            return writer.value
        }
    }
}

extension AlertText {
    init(json: JSONValue, path: String) throws(FieldError) {
        if let text = json.stringValue {
            self = .plain(text)
            return
        }
        let reader = try ObjectReader(json, path: path)
        var key: String?
        var arguments: [String]?
        for member in reader.members {
            switch member.key {
            case "loc-key": key = try reader.string(member.key, member.value)
            case "loc-args": arguments = try reader.strings(member.key, member.value)
            default:
                throw FieldError(
                    field: reader.field(member.key),
                    message: "is not allowed here; a localized text has only loc-key and loc-args")
            }
        }
        guard let key else { throw FieldError(field: path, message: "must be a string, or an object with loc-key") }
        self = .localized(key: key, arguments: arguments)
    }

    var json: JSONValue {
        switch self {
        case .plain(let text): .string(text)
        case .localized(let key, let arguments):
            .object(
                JSONObject(
                    [.init(key: "loc-key", value: .string(key))]
                        + (arguments.map { [.init(key: "loc-args", value: .array($0.map(JSONValue.string)))] } ?? [])))
        }
    }
}
