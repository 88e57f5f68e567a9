// Compact JSON encoding: no whitespace, members in their stored order, numbers as written,
// strings with only the escapes JSON requires (non-ASCII stays UTF-8). These are the bytes APNs counts.

extension JSONValue {
    /// The compact UTF-8 encoding of the value.
    public func encoded() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        encode(into: &output)
        return output
    }

    /// The compact encoding as a string.
    public var encodedString: String {
        String(decoding: encoded(), as: UTF8.self)
    }

    /// Appends the compact encoding of the value to `output`.
    public func encode(into output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let number): output.append(contentsOf: number.text.utf8)
        case .string(let string): Self.encode(string: string, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                element.encode(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            for (position, member) in object.members.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                Self.encode(string: member.key, into: &output)
                output.append(UInt8(ascii: ":"))
                member.value.encode(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    static func encode(string: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                output.append(contentsOf: "\\u00".utf8)
                output.append(digits[Int(byte >> 4)])
                output.append(digits[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// A human-readable, indented rendering (two spaces) for terminals; not what is sent.
    public func prettyPrinted(indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case .array(let elements) where !elements.isEmpty:
            return "[\n" + elements.map { inner + $0.prettyPrinted(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let object) where !object.isEmpty:
            let lines = object.members.map { member in
                inner + JSONValue.string(member.key).encodedString + ": " + member.value.prettyPrinted(indent: inner)
            }
            return "{\n" + lines.joined(separator: ",\n") + "\n\(indent)}"
        default:
            return encodedString
        }
    }
}
