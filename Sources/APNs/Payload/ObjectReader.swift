// Typed reads from a JSON object, with errors that name the field's path and the type it needs.

struct ObjectReader {
    let object: JSONObject
    let path: String

    init(_ value: JSONValue, path: String) throws(FieldError) {
        guard let object = value.objectValue else {
            throw FieldError(field: path, message: "must be an object, not \(value.kindDescription)")
        }
        self.object = object
        self.path = path
    }

    /// The members a receiver keeps: of a key written more than once only the last, as a lookup
    /// by key (and the linter) reads it, so an earlier copy's bad value does not refuse the payload.
    var members: [JSONObject.Member] { object.lastOfEachKey }

    func field(_ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    func mismatch(_ key: String, _ value: JSONValue, _ expected: String) -> FieldError {
        FieldError(field: field(key), message: "must be \(expected), not \(value.kindDescription)")
    }

    func string(_ key: String, _ value: JSONValue) throws(FieldError) -> String {
        guard let string = value.stringValue else { throw mismatch(key, value, "a string") }
        return string
    }

    func int(_ key: String, _ value: JSONValue) throws(FieldError) -> Int {
        guard let int = value.intValue else { throw mismatch(key, value, "an integer") }
        return int
    }

    func double(_ key: String, _ value: JSONValue) throws(FieldError) -> Double {
        guard let double = value.doubleValue else { throw mismatch(key, value, "a number") }
        guard double.isFinite else {
            throw FieldError(field: field(key), message: "\(value.encodedString) is out of range; use a finite number")
        }
        return double
    }

    func bool(_ key: String, _ value: JSONValue) throws(FieldError) -> Bool {
        guard let bool = value.boolValue else { throw mismatch(key, value, "true or false") }
        return bool
    }

    func object(_ key: String, _ value: JSONValue) throws(FieldError) -> JSONObject {
        guard let object = value.objectValue else { throw mismatch(key, value, "an object") }
        return object
    }

    func strings(_ key: String, _ value: JSONValue) throws(FieldError) -> [String] {
        guard let array = value.arrayValue else { throw mismatch(key, value, "an array of strings") }
        var strings: [String] = []
        for (position, element) in array.enumerated() {
            guard let string = element.stringValue else {
                throw FieldError(
                    field: "\(field(key))[\(position)]", message: "must be a string, not \(element.kindDescription)")
            }
            strings.append(string)
        }
        return strings
    }
}

/// Builds a JSON object member by member, skipping absent values.
struct ObjectWriter {
    var object = JSONObject()

    mutating func put(_ key: String, _ value: JSONValue?) {
        if let value { object.append(key: key, value: value) }
    }

    mutating func put(_ key: String, _ value: String?) {
        put(key, value.map(JSONValue.string))
    }

    mutating func put(_ key: String, _ value: Int?) {
        put(key, value.map { JSONValue.number(JSONNumber($0)) })
    }

    mutating func put(_ key: String, _ value: Double?) {
        put(key, value.flatMap(JSONNumber.init).map(JSONValue.number))
    }

    mutating func put(_ key: String, _ value: Bool?) {
        put(key, value.map(JSONValue.bool))
    }

    mutating func put(_ key: String, _ value: [String]?) {
        put(key, value.map { JSONValue.array($0.map(JSONValue.string)) })
    }

    mutating func put(_ key: String, _ value: JSONObject?) {
        put(key, value.map(JSONValue.object))
    }

    mutating func merge(_ extra: JSONObject) {
        for member in extra { object.append(key: member.key, value: member.value) }
    }

    var value: JSONValue { .object(object) }
}
