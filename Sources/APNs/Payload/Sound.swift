/// The `aps.sound` key: a sound file name ("default" for the system sound), or a dictionary for
/// critical alerts with a volume.
public enum Sound: Sendable, Hashable, ExpressibleByStringLiteral {
    case named(String)
    case dictionary(SoundDictionary)

    public init(stringLiteral value: String) { self = .named(value) }

    /// The system's default sound.
    public static let `default`: Sound = "default"

    /// A critical alert sound (needs Apple's critical alerts entitlement), volume 0 to 1.
    public static func critical(_ name: String = "default", volume: Double? = nil) -> Sound {
        .dictionary(SoundDictionary(critical: 1, name: name, volume: volume))
    }

    /// Whether this is a critical sound (`"critical": 1`).
    public var isCritical: Bool {
        if case .dictionary(let sound) = self { return sound.critical == 1 }
        return false
    }
}

/// `{"critical": 1, "name": "...", "volume": 0.0...1.0}`.
public struct SoundDictionary: Sendable, Hashable {
    public var critical: Int?
    public var name: String?
    public var volume: Double?
    public var extra: JSONObject

    public init(critical: Int? = nil, name: String? = nil, volume: Double? = nil, extra: JSONObject = JSONObject()) {
        self.critical = critical
        self.name = name
        self.volume = volume
        self.extra = extra
    }
}

extension Sound {
    init(json: JSONValue, path: String) throws(FieldError) {
        if let name = json.stringValue {
            self = .named(name)
            return
        }
        let reader = try ObjectReader(json, path: path)
        var sound = SoundDictionary()
        for member in reader.members {
            switch member.key {
            case "critical": sound.critical = try reader.int(member.key, member.value)
            case "name": sound.name = try reader.string(member.key, member.value)
            case "volume": sound.volume = try reader.double(member.key, member.value)
            default: sound.extra[member.key] = member.value
            }
        }
        self = .dictionary(sound)
    }

    var json: JSONValue {
        switch self {
        case .named(let name):
            return .string(name)
        case .dictionary(let sound):
            var writer = ObjectWriter()
            writer.put("critical", sound.critical)
            writer.put("name", sound.name)
            writer.put("volume", sound.volume)
            writer.merge(sound.extra)
            return writer.value
        }
    }
}
