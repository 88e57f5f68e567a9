import APNs

/// Reads a JSON request body field by field; every error is a 400 naming the field as the body
/// writes it (`to.tokens[2]`, `to.push-to-start.users`) and saying what is allowed. `null` is as
/// good as absent; an unknown field is refused, so a misspelt one cannot vanish silently.
enum BodyFields {
    /// The body as a JSON object without repeated keys.
    static func object(_ bytes: [UInt8]) throws(GatewayAPIError) -> JSONObject {
        guard !bytes.isEmpty else { throw .badRequest(field: "body", "is empty; send a JSON object") }
        let object = try GatewayJSONBody.parseObject(bytes)
        try refuseRepeatsAndUnknown(object, at: "", allowed: nil)
        return object
    }

    /// Throws for a key given twice, or (with `allowed`) a key not in it.
    static func refuseRepeatsAndUnknown(_ object: JSONObject, at prefix: String, allowed: [String]?)
        throws(GatewayAPIError)
    {
        if let repeated = object.duplicateKeys.first {
            throw .badRequest(field: prefix + repeated, "appears twice")
        }
        guard let allowed else { return }
        for key in object.keys where !allowed.contains(key) {
            throw .badRequest(field: prefix + key, "is not a field here; use \(allowed.joined(separator: ", "))")
        }
    }

    /// A non-empty string, or nil when absent or null.
    static func string(_ object: JSONObject, _ key: String, at prefix: String = "") throws(GatewayAPIError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let text = value.stringValue else {
            throw .badRequest(field: prefix + key, "is \(value.kindDescription); send a string")
        }
        guard !text.isEmpty else { throw .badRequest(field: prefix + key, "is empty; omit it or send a value") }
        return text
    }

    /// A non-empty array of non-empty strings, or nil when absent or null.
    static func strings(_ object: JSONObject, _ key: String, at prefix: String = "") throws(GatewayAPIError)
        -> [String]?
    {
        guard let value = object[key], !value.isNull else { return nil }
        guard let array = value.arrayValue else {
            throw .badRequest(field: prefix + key, "is \(value.kindDescription); send an array of strings")
        }
        guard !array.isEmpty else { throw .badRequest(field: prefix + key, "is empty; name at least one") }
        var strings: [String] = []
        strings.reserveCapacity(array.count)
        for (index, element) in array.enumerated() {
            guard let text = element.stringValue, !text.isEmpty else {
                throw .badRequest(
                    field: "\(prefix)\(key)[\(index)]", "is \(element.kindDescription); send a non-empty string")
            }
            strings.append(text)
        }
        return strings
    }

    /// A whole number of at least `minimum`, or nil when absent or null.
    static func integer(_ object: JSONObject, _ key: String, minimum: Int = 0, unit: String)
        throws(GatewayAPIError) -> Int?
    {
        guard let value = object[key], !value.isNull else { return nil }
        guard let number = value.numberValue, let integer = number.intValue, number.isInteger else {
            throw .badRequest(field: key, "is \(value.kindDescription) (\(value.encodedString)); send \(unit)")
        }
        guard integer >= minimum else { throw .badRequest(field: key, "is \(integer); send \(unit)") }
        return integer
    }

    /// The value as the text of a header (a number's digits, a string as is), or nil when absent or
    /// null: for the lint route, which reports a malformed header value as a finding, not a 400.
    static func headerText(_ object: JSONObject, _ key: String) throws(GatewayAPIError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        if let text = value.stringValue { return text }
        if let number = value.numberValue { return number.text }
        throw .badRequest(field: key, "is \(value.kindDescription); send a string or a number")
    }
}
