// The type of every documented key in aps, aps.alert and aps.sound (Apple: "Generating a remote
// notification", ActivityKit push docs). The linter checks payloads against this table.

/// The JSON shapes a documented key may take.
struct ValueKind: OptionSet, Sendable {
    let rawValue: UInt16

    static let string = ValueKind(rawValue: 1 << 0)
    static let integer = ValueKind(rawValue: 1 << 1)
    static let number = ValueKind(rawValue: 1 << 2)
    static let boolean = ValueKind(rawValue: 1 << 3)
    static let object = ValueKind(rawValue: 1 << 4)
    static let stringArray = ValueKind(rawValue: 1 << 5)
    static let null = ValueKind(rawValue: 1 << 6)
    /// `{"loc-key": "...", "loc-args": [...]}` (Live Activity alert title and body).
    static let localizedText = ValueKind(rawValue: 1 << 7)

    func accepts(_ value: JSONValue) -> Bool {
        switch value {
        case .string: contains(.string)
        case .number(let number): contains(.number) || (contains(.integer) && number.intValue != nil)
        case .bool: contains(.boolean)
        case .null: contains(.null)
        case .array(let elements): contains(.stringArray) && elements.allSatisfy { $0.stringValue != nil }
        case .object(let object):
            contains(.object)
                || (contains(.localizedText) && object["loc-key"]?.stringValue != nil
                    && object.keys.allSatisfy { $0 == "loc-key" || $0 == "loc-args" }
                    && ValueKind.stringArray.accepts(object["loc-args"] ?? .array([])))
        }
    }

    /// "a string or an object", for messages.
    var expectation: String {
        var names: [String] = []
        if contains(.string) { names.append("a string") }
        if contains(.integer) { names.append("an integer") }
        if contains(.number) { names.append("a number") }
        if contains(.boolean) { names.append("true or false") }
        if contains(.object) { names.append("an object") }
        if contains(.localizedText) { names.append("{\"loc-key\":…,\"loc-args\":[…]}") }
        if contains(.stringArray) { names.append("an array of strings") }
        if contains(.null) { names.append("null") }
        return names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }
}

enum APSSchema {
    static let aps: [String: ValueKind] = [
        "alert": [.string, .object],
        "badge": .integer,
        "sound": [.string, .object],
        "thread-id": .string,
        "category": .string,
        "content-available": .integer,
        "mutable-content": .integer,
        "target-content-id": .string,
        "interruption-level": .string,
        "relevance-score": .number,
        "filter-criteria": .string,
        "content-changed": .boolean,
        "url-args": .stringArray,
        "event": .string,
        "timestamp": .integer,
        "content-state": .object,
        "stale-date": .integer,
        "dismissal-date": .integer,
        "attributes-type": .string,
        "attributes": .object,
        "input-push-token": .integer,
        "input-push-channel": .string,
    ]

    static let alert: [String: ValueKind] = [
        "title": [.string, .localizedText],
        "subtitle": .string,
        "body": [.string, .localizedText],
        "launch-image": .string,
        "title-loc-key": [.string, .null],
        "title-loc-args": [.stringArray, .null],
        "subtitle-loc-key": [.string, .null],
        "subtitle-loc-args": [.stringArray, .null],
        "loc-key": .string,
        "loc-args": .stringArray,
        "sound": .string,
        "summary-arg": .string,
        "summary-arg-count": .integer,
        "action-loc-key": [.string, .null],
        "action": .string,
    ]

    /// Alert keys current systems no longer read.
    static let legacyAlertKeys: Set<String> = ["summary-arg", "summary-arg-count", "action-loc-key", "action"]

    static let sound: [String: ValueKind] = [
        "critical": .integer,
        "name": .string,
        "volume": .number,
    ]

    /// Keys that only Live Activity pushes use.
    static let liveActivityKeys: [String] = [
        "event", "timestamp", "content-state", "stale-date", "dismissal-date", "attributes-type", "attributes",
        "input-push-token", "input-push-channel",
    ]

    /// Keys read only when an activity starts.
    static let startOnlyKeys: [String] = ["attributes-type", "attributes", "input-push-token", "input-push-channel"]
}
