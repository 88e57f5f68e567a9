// A strict RFC 8259 JSON parser over bytes.
//
// Strict means: one value with only whitespace around it, no trailing commas, no comments, no
// leading zeros, no control characters or invalid UTF-8 in strings, no lone surrogates. Nesting is
// limited (`maximumDepth`) so hostile input cannot exhaust the stack.

extension JSONValue {
    /// Parses exactly one JSON value from `bytes`.
    public init(parsing bytes: some Collection<UInt8>) throws(JSONError) {
        let array = Array(bytes)
        var result: Result<JSONValue, JSONError> = .failure(JSONError(message: "", offset: 0, line: 1, column: 1))
        array.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            result = Result { () throws(JSONError) -> JSONValue in try parser.parseDocument() }
        }
        self = try result.get()
    }

    /// Parses exactly one JSON value from the UTF-8 of `text`.
    public init(parsing text: String) throws(JSONError) {
        try self.init(parsing: Array(text.utf8))
    }
}

struct JSONParser {
    static let maximumDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func parseDocument() throws(JSONError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw error(bytes.isEmpty ? "empty input" : "no value, only whitespace") }
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected \(describe(bytes[index])) after the value") }
        return value
    }

    private mutating func parseValue() throws(JSONError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object(try parseObject())
        case UInt8(ascii: "["): return .array(try parseArray())
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected \(describe(bytes[index])), expected a value")
        }
    }

    private mutating func parseObject() throws(JSONError) -> JSONObject {
        try enter()
        index += 1  // {
        var object = JSONObject()
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return object
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a string key in object") }
            let key = try parseString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after object key \"\(key)\"") }
            index += 1
            skipWhitespace()
            object.append(key: key, value: try parseValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; depth -= 1; return object
            default: throw error("expected ',' or '}' in object")
            }
        }
    }

    private mutating func parseArray() throws(JSONError) -> [JSONValue] {
        try enter()
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return elements
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; depth -= 1; return elements
            default: throw error("expected ',' or ']' in array")
            }
        }
    }

    private mutating func enter() throws(JSONError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseNumber() throws(JSONError) -> JSONNumber {
        let start = index
        guard Self.scanNumber(bytes, &index) else { throw error("malformed number") }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        return JSONNumber(uncheckedText: text)
    }

    /// Advances past one JSON number lexeme starting at `index`; false if it is malformed.
    static func scanNumber(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Bool {
        func isDigit(_ i: Int) -> Bool { i < bytes.count && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9") }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { return false }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { return false }  // leading zero
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { return false }
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { return false }
            while isDigit(index) { index += 1 }
        }
        return true
    }

    private mutating func parseString() throws(JSONError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = try makeString(UnsafeBufferPointer(rebasing: bytes[start..<index]), at: start)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character \(describe(byte)) in string; escape it") }
            index += 1
        }
        var scratch = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let text = try scratch.withUnsafeBufferPointer { buffer throws(JSONError) in try makeString(buffer, at: start) }
                index += 1
                return text
            case UInt8(ascii: "\\"):
                index += 1
                try parseEscape(into: &scratch)
            case 0..<0x20:
                throw error("control character \(describe(byte)) in string; escape it")
            default:
                scratch.append(byte)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    private mutating func parseEscape(into scratch: inout [UInt8]) throws(JSONError) {
        guard index < bytes.count else { throw error("unterminated escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): scratch.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): scratch.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): scratch.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw error("lone high surrogate \\u\(hex(scalar)) in string") }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("high surrogate not followed by a low one") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("lone low surrogate \\u\(hex(scalar)) in string")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid code point in \\u escape") }
            scratch.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            index -= 1
            throw error("invalid escape '\\\(String(decoding: [byte], as: UTF8.self))'")
        }
    }

    private mutating func parseHex4() throws(JSONError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private func makeString(_ buffer: UnsafeBufferPointer<UInt8>, at start: Int) throws(JSONError) -> String {
        guard let text = String(validating: buffer, as: UTF8.self) else {
            throw error("string is not valid UTF-8", at: start)
        }
        return text
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
        let count = literal.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        guard index + count <= bytes.count, zip(bytes[index..<index + count], expected).allSatisfy({ $0 == $1 }) else {
            throw error("unexpected \(describe(bytes[index])), expected a value")
        }
        index += count
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(String(decoding: [byte], as: UTF8.self))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private func hex(_ value: UInt32) -> String {
        String(value, radix: 16, uppercase: true)
    }

    private func error(_ message: String, at offset: Int? = nil) -> JSONError {
        let position = min(offset ?? index, bytes.count)
        var line = 1
        var column = 1
        for byte in bytes[0..<position] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONError(message: message, offset: position, line: line, column: column)
    }
}
