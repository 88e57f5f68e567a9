import APNs

extension TimelineEntry {
    /// The entry as a JSON object: `time` (ISO 8601 UTC), `seconds` (since 1970), `app`, `kind`,
    /// `notification-id` (when there is one), `rule`, `section`, `label`, `message`.
    public var json: JSONValue {
        var object = JSONObject()
        object["time"] = .string(time.description)
        object["seconds"] = .number(JSONNumber(time.secondsSince1970) ?? JSONNumber(0))
        object["app"] = .string(app)
        object["kind"] = .string(kind.rawValue)
        if let notificationID { object["notification-id"] = .string(notificationID) }
        object["rule"] = .string(rule.id)
        object["section"] = .string(rule.section)
        object["label"] = .string(rule.label.rawValue)
        object["message"] = .string(message)
        return .object(object)
    }

    /// `json` encoded on one line, without the newline.
    public var jsonLine: String {
        String(decoding: json.encoded(), as: UTF8.self)
    }
}

extension Timeline {
    /// One JSON object per line (`TimelineEntry.json`).
    public var jsonLines: String {
        entries.map(\.jsonLine).joined(separator: "\n")
    }
}
