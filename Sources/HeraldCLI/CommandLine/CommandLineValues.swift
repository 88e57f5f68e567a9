import APNs

// Values whose shape the command line itself gets wrong: refused while parsing, so a malformed
// value exits 2 (the command line was wrong) in every command that takes it, never 1 in one
// command and 2 in another.

enum CommandLineValues {
    /// A key id or team id: 10 letters or digits, as Apple's developer account shows them.
    static func identifier(_ value: String?, option: String) throws(UsageError) -> String? {
        guard let value else { return nil }
        let valid =
            value.utf8.count == 10
            && value.utf8.allSatisfy { byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            }
        guard valid else {
            throw .invalidValue(
                option: option, value: value,
                rule: "must be 10 letters or digits, as your Apple developer account shows it")
        }
        return value
    }

    /// A device token given on the command line: hexadecimal digits.
    static func token(_ value: String, option: String) throws(UsageError) -> String {
        do {
            _ = try DeviceToken(hex: value)
        } catch {
            throw .invalidValue(option: option, value: nil, rule: error.message)
        }
        return value
    }

    /// A bundle id (no push-type suffix).
    static func bundleID(_ value: String, option: String) throws(UsageError) -> String {
        if let problem = Topic.bundleIDProblem(value) { throw .invalidValue(option: option, value: nil, rule: problem) }
        return value
    }
}
