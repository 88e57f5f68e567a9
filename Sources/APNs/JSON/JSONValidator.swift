// A strict RFC 8259 validator over bytes: the verdicts of `JSONParser`, and the byte offsets of its
// errors, without building a value, making a String or allocating. The emulator's hot path only
// needs to know that a payload is a JSON object; building a `JSONValue` tree to learn that cost more
// than the HTTP/2 work of the request.
//
// It follows JSONParser function by function (same order of checks, same offsets), so the two
// cannot drift apart quietly: JSONValidatorTests runs both on every parser test case and on seeded
// random mutations of them and requires the same answer. Strings are checked as the parser checks
// them: control characters and escapes while scanning, UTF-8 once the closing quote is found (the
// raw bytes between the quotes, escapes included: escapes are ASCII, so the raw text is valid UTF-8
// exactly when the parser's decoded text is).

/// The kind of a JSON value.
public enum JSONKind: Sendable, Hashable {
    case null, bool, number, string, array, object
}

/// The outcome of ``JSONValidator/validate(_:)-(UnsafeBufferPointer<UInt8>)``.
public enum JSONValidation: Sendable, Hashable {
    /// One valid JSON value of this kind, with only whitespace around it.
    case valid(JSONKind)
    /// Not valid JSON; `offset` is the byte offset `JSONValue(parsing:)` reports in its `JSONError`.
    case invalid(offset: Int)

    /// Whether the bytes are one JSON object.
    public var isObject: Bool { self == .valid(.object) }
}

/// Strict JSON validation without parsing into values. Thread-safe (pure functions).
public enum JSONValidator {
    /// Validates `bytes` as exactly one JSON value, as `JSONValue(parsing:)` would (depth limit included).
    package static func validate(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONValidation {
        var scanner = JSONScanner(bytes)
        guard let kind = scanner.scanDocument() else { return .invalid(offset: min(scanner.failure, bytes.count)) }
        return .valid(kind)
    }

    /// Validates `bytes` as exactly one JSON value.
    public static func validate(_ bytes: [UInt8]) -> JSONValidation {
        bytes.withUnsafeBufferPointer { validate($0) }
    }
}

/// The scanner behind ``JSONValidator``: each `scan` returns false (and sets `failure`) where the
/// parser would throw.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0
    /// The offset of the first error.
    var failure = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func scanDocument() -> JSONKind? {
        skipWhitespace()
        guard index < bytes.count else { return fail() }
        guard let kind = scanValue() else { return nil }
        skipWhitespace()
        guard index == bytes.count else { return fail() }
        return kind
    }

    private mutating func scanValue() -> JSONKind? {
        guard index < bytes.count else { return fail() }
        switch bytes[index] {
        case UInt8(ascii: "{"): return scanObject() ? .object : nil
        case UInt8(ascii: "["): return scanArray() ? .array : nil
        case UInt8(ascii: "\""): return scanString() ? .string : nil
        case UInt8(ascii: "t"): return expectLiteral("true") ? .bool : nil
        case UInt8(ascii: "f"): return expectLiteral("false") ? .bool : nil
        case UInt8(ascii: "n"): return expectLiteral("null") ? .null : nil
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONParser.scanNumber(bytes, &index) ? .number : fail()
        default: return fail()
        }
    }

    private mutating func scanObject() -> Bool {
        guard enter() else { return false }
        index += 1  // {
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return true
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { return failed() }
            guard scanString() else { return false }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { return failed() }
            index += 1
            skipWhitespace()
            guard scanValue() != nil else { return false }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return true
            default: return failed()
            }
        }
    }

    private mutating func scanArray() -> Bool {
        guard enter() else { return false }
        index += 1  // [
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return true
        }
        while true {
            skipWhitespace()
            guard scanValue() != nil else { return false }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return true
            default: return failed()
            }
        }
    }

    private mutating func enter() -> Bool {
        depth += 1
        return depth > JSONParser.maximumDepth ? failed() : true
    }

    /// Called on the opening quote.
    private mutating func scanString() -> Bool {
        index += 1
        let start = index
        var ascii = true
        while index < bytes.count {
            // The common run: printable ASCII other than the quote and the backslash, in a local loop.
            var position = index
            let count = bytes.count
            // Eight bytes at a time: a word with a byte that ends the run says which one (the
            // lowest flagged byte is exact), so the byte loop runs only near the end of the input.
            var found = false
            if let base = bytes.baseAddress {
                while position + 8 <= count {
                    // Little-endian, so the lowest set bit belongs to the first byte in memory.
                    let special = Self.runEnders(
                        UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)))
                    if special == 0 {
                        position += 8
                        continue
                    }
                    position += special.trailingZeroBitCount >> 3
                    found = true
                    break
                }
            }
            while !found, position < count {
                let byte = bytes[position]
                guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else { break }
                position += 1
            }
            index = position
            guard index < count else { break }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let valid = ascii || Self.isValidUTF8(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                guard valid else { return failed(at: start) }
                index += 1
                return true
            case UInt8(ascii: "\\"):
                index += 1
                guard scanEscape() else { return false }
            case 0..<0x20:
                return failed()
            default:
                if byte >= 0x80 { ascii = false }
                index += 1
            }
        }
        return failed()  // unterminated
    }

    /// The high bit of each byte of `word` (little-endian) that may end a string's plain run: a
    /// control character, non-ASCII, a quote or a backslash; 0 when none does. The classic zero-byte
    /// tests can flag bytes above a true one (a borrow), never below it: the lowest flag is exact.
    @inline(__always)
    static func runEnders(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let control = (word &- ones &* 0x20) & ~word
        let hasQuote = (quote &- ones) & ~quote
        let hasBackslash = (backslash &- ones) & ~backslash
        return (word | control | hasQuote | hasBackslash) & highs
    }

    /// Called after the backslash.
    private mutating func scanEscape() -> Bool {
        guard index < bytes.count else { return failed() }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return true
        case UInt8(ascii: "u"):
            guard let scalar = scanHex4() else { return false }
            if (0xD800...0xDBFF).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { return failed() }
                index += 2
                guard let low = scanHex4() else { return false }
                return (0xDC00...0xDFFF).contains(low) ? true : failed()
            }
            return (0xDC00...0xDFFF).contains(scalar) ? failed() : true
        default:
            index -= 1
            return failed()
        }
    }

    private mutating func scanHex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return fail() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Hex.value(of: bytes[index]) else { return fail() }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func expectLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return failed() }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] {
            return failed()
        }
        index += count
        return true
    }

    private mutating func skipWhitespace() {
        var position = index
        let count = bytes.count
        while position < count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default:
                index = position
                return
            }
        }
        index = position
    }

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func failed(at offset: Int? = nil) -> Bool {
        failure = offset ?? index
        return false
    }

    private mutating func fail<T>() -> T? {
        failure = index
        return nil
    }

    /// Whether `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past
    /// U+10FFFF), as `String(validating:as:)` requires.
    static func isValidUTF8(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }
        var i = 0
        let end = text.count
        while i < end {
            let lead = text[i]
            switch lead {
            case 0..<0x80:
                i += 1
            case 0xC2..<0xE0:
                guard i + 1 < end, isContinuation(text[i + 1]) else { return false }
                i += 2
            case 0xE0..<0xF0:
                guard i + 2 < end else { return false }
                let low: UInt8 = lead == 0xE0 ? 0xA0 : 0x80
                let high: UInt8 = lead == 0xED ? 0x9F : 0xBF
                guard (low...high).contains(text[i + 1]), isContinuation(text[i + 2]) else { return false }
                i += 3
            case 0xF0..<0xF5:
                guard i + 3 < end else { return false }
                let low: UInt8 = lead == 0xF0 ? 0x90 : 0x80
                let high: UInt8 = lead == 0xF4 ? 0x8F : 0xBF
                guard (low...high).contains(text[i + 1]), isContinuation(text[i + 2]), isContinuation(text[i + 3])
                else { return false }
                i += 4
            default:
                return false
            }
        }
        return true
    }
}
