import APNs

/// Reads one JSON object of a profile, knowing where it is (`script[2].tap-action`), so every error names
/// the field; keys nobody read are an error too (a typo must not pass silently).
struct ProfileReader {
    let object: JSONObject
    let path: String
    private(set) var read: Set<String> = []

    init(_ value: JSONValue, at path: String) throws(FieldError) {
        guard let object = value.objectValue else {
            throw FieldError(
                field: path.isEmpty ? "profile" : path, message: "must be an object, not \(value.kindDescription)")
        }
        self.object = object
        self.path = path
    }

    func field(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    mutating func value(_ key: String) -> JSONValue? {
        read.insert(key)
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    mutating func string(_ key: String) throws(FieldError) -> String? {
        guard let value = value(key) else { return nil }
        guard let text = value.stringValue else {
            throw FieldError(field: field(key), message: "must be a string, not \(value.kindDescription)")
        }
        return text
    }

    mutating func requiredString(_ key: String) throws(FieldError) -> String {
        guard let text = try string(key) else { throw FieldError(field: field(key), message: "is missing") }
        guard !text.isEmpty else { throw FieldError(field: field(key), message: "must not be empty") }
        return text
    }

    mutating func bool(_ key: String) throws(FieldError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard let flag = value.boolValue else {
            throw FieldError(field: field(key), message: "must be true or false, not \(value.kindDescription)")
        }
        return flag
    }

    /// A number of seconds, at least 0.
    mutating func seconds(_ key: String) throws(FieldError) -> Double? {
        guard let value = value(key) else { return nil }
        guard let number = value.doubleValue, number.isFinite, number >= 0 else {
            throw FieldError(field: field(key), message: "must be a number of seconds, 0 or more")
        }
        return number
    }

    mutating func strings(_ key: String) throws(FieldError) -> [String]? {
        guard let value = value(key) else { return nil }
        guard let items = value.arrayValue else {
            throw FieldError(field: field(key), message: "must be an array of strings, not \(value.kindDescription)")
        }
        var result: [String] = []
        for (index, item) in items.enumerated() {
            guard let text = item.stringValue else {
                throw FieldError(field: "\(field(key))[\(index)]", message: "must be a string")
            }
            result.append(text)
        }
        return result
    }

    /// One of `choices` (each a name and the value it stands for).
    mutating func choice<T>(_ key: String, _ choices: [(String, T)]) throws(FieldError) -> T? {
        guard let text = try string(key) else { return nil }
        return try Self.pick(text, choices, field: field(key))
    }

    static func pick<T>(_ text: String, _ choices: [(String, T)], field: String) throws(FieldError) -> T {
        guard let match = choices.first(where: { $0.0 == text }) else {
            let names = choices.map { "'\($0.0)'" }.joined(separator: ", ")
            throw FieldError(field: field, message: "'\(text)' is not one of \(names)")
        }
        return match.1
    }

    mutating func object(_ key: String) throws(FieldError) -> ProfileReader? {
        guard let value = value(key) else { return nil }
        return try ProfileReader(value, at: field(key))
    }

    /// Throws for a key nobody read.
    func finish() throws(FieldError) {
        for key in object.keys where !read.contains(key) {
            let known = read.sorted().joined(separator: ", ")
            throw FieldError(field: field(key), message: "is not a profile field here (known: \(known))")
        }
    }
}
