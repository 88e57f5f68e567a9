// A byte-level reading of one bulk request line, for the common shape only:
//
//   {"token":"<hex>","payload":{...},"apns-priority":5,...}
//
// keys and string values without escapes, ASCII only, the payload compact (no whitespace outside
// its strings), so the payload's bytes are exactly what encoding the parsed payload would give.
// It validates what it reads (JSON grammar, depth) but builds no tree and no string per key.
// Anything else (escapes, non-ASCII, whitespace inside the payload, unknown or repeated keys,
// malformed JSON) returns nil, and the caller parses the line fully, which also words the error.

/// The parts of a bulk request line, as found by `BulkLineScanner.scan`.
struct BulkLineFields {
    var token: String?
    /// The payload object's bytes, as they appear in the line.
    var payload: ArraySlice<UInt8>?
    /// Header keys and their values as text (strings as they are, integers as written).
    var headers: [(key: String, value: String)] = []

    func header(_ key: String) -> String? {
        headers.first { $0.key == key }?.value
    }
}

enum BulkLineScanner {
    static let maximumDepth = 64
    /// The keys a line may have, each at most once.
    static let keys = [
        "payload", "token", "apns-topic", "apns-push-type", "apns-priority", "apns-expiration", "apns-collapse-id",
        "apns-id",
    ]

    /// The line's fields, or nil when the line is not in the simple form (see above).
    static func scan(_ line: [UInt8]) -> BulkLineFields? {
        line.withUnsafeBufferPointer { bytes in
            var scanner = Cursor(bytes: bytes)
            return scanner.line(base: line)
        }
    }

    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        mutating func line(base: [UInt8]) -> BulkLineFields? {
            var fields = BulkLineFields()
            var seen: UInt32 = 0  // bit i: BulkLineScanner.keys[i] was read
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return nil }
            skipSpace()
            if take(UInt8(ascii: "}")) { return finish(fields) }
            while true {
                skipSpace()
                guard let keyRange = string() else { return nil }
                let key = String(decoding: bytes[keyRange], as: UTF8.self)
                guard let slot = BulkLineScanner.keys.firstIndex(of: key), seen & (1 << slot) == 0 else { return nil }
                seen |= 1 << slot
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                switch key {
                case "payload":
                    guard peek == UInt8(ascii: "{") else { return nil }
                    let start = position
                    guard value(depth: 0, compact: true) else { return nil }
                    fields.payload = base[start..<position]
                case "token":
                    guard let range = string() else { return nil }
                    fields.token = String(decoding: bytes[range], as: UTF8.self)
                case "apns-topic", "apns-push-type", "apns-priority", "apns-expiration", "apns-collapse-id", "apns-id":
                    if let range = string() {
                        fields.headers.append((key, String(decoding: bytes[range], as: UTF8.self)))
                    } else if let range = integer() {
                        fields.headers.append((key, String(decoding: bytes[range], as: UTF8.self)))
                    } else {
                        return nil
                    }
                default:
                    return nil
                }
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                guard take(UInt8(ascii: "}")) else { return nil }
                return finish(fields)
            }
        }

        private mutating func finish(_ fields: BulkLineFields) -> BulkLineFields? {
            skipSpace()
            return position == bytes.count ? fields : nil
        }

        private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            position += 1
            return true
        }

        private mutating func skipSpace() {
            while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
        }

        /// A string without escapes, printable ASCII: the range of its contents.
        private mutating func string() -> Range<Int>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = position
            while let byte = peek {
                if byte == UInt8(ascii: "\"") {
                    position += 1
                    return start..<(position - 1)
                }
                guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
                position += 1
            }
            return nil
        }

        /// An integer (`-`? digits, no leading zero): the range of its text.
        private mutating func integer() -> Range<Int>? {
            let start = position
            _ = take(UInt8(ascii: "-"))
            let digits = position
            while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { position += 1 }
            let count = position - digits
            guard count > 0, count == 1 || bytes[digits] != UInt8(ascii: "0") else { return nil }
            if let byte = peek, byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                return nil
            }
            return start..<position
        }

        /// Any JSON value, validated; with `compact`, no whitespace is allowed outside strings.
        private mutating func value(depth: Int, compact: Bool) -> Bool {
            guard depth < BulkLineScanner.maximumDepth, let byte = peek else { return false }
            switch byte {
            case UInt8(ascii: "{"):
                position += 1
                if take(UInt8(ascii: "}")) { return true }
                while true {
                    guard string() != nil, take(UInt8(ascii: ":")), value(depth: depth + 1, compact: compact) else {
                        return false
                    }
                    if take(UInt8(ascii: ",")) { continue }
                    return take(UInt8(ascii: "}"))
                }
            case UInt8(ascii: "["):
                position += 1
                if take(UInt8(ascii: "]")) { return true }
                while true {
                    guard value(depth: depth + 1, compact: compact) else { return false }
                    if take(UInt8(ascii: ",")) { continue }
                    return take(UInt8(ascii: "]"))
                }
            case UInt8(ascii: "\""):
                return string() != nil
            case UInt8(ascii: "t"):
                return literal("true")
            case UInt8(ascii: "f"):
                return literal("false")
            case UInt8(ascii: "n"):
                return literal("null")
            default:
                return number()
            }
        }

        private mutating func literal(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard bytes.count - position >= count else { return false }
            for offset in 0..<count where bytes[position + offset] != text.utf8Start[offset] { return false }
            position += count
            return true
        }

        /// A JSON number: `-`? int frac? exp?
        private mutating func number() -> Bool {
            _ = take(UInt8(ascii: "-"))
            let digits = position
            skipDigits()
            let count = position - digits
            guard count > 0, count == 1 || bytes[digits] != UInt8(ascii: "0") else { return false }
            if take(UInt8(ascii: ".")) {
                let fraction = position
                skipDigits()
                guard position > fraction else { return false }
            }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
                let exponent = position
                skipDigits()
                guard position > exponent else { return false }
            }
            return true
        }

        private mutating func skipDigits() {
            while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { position += 1 }
        }
    }
}
