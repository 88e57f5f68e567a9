// A byte-level reading of one NDJSON request line (`herald send --requests`), for the common shape only:
//
//   {"token":"<hex>","payload":{...},"apns-priority":5,...}
//
// keys and string values without escapes, ASCII only, the payload compact (no whitespace outside
// its strings), so the payload's bytes are exactly what encoding the parsed payload would give.
// It validates what it reads (JSON grammar, depth) but builds no tree and no string per key.
// Anything else (escapes, non-ASCII, whitespace inside the payload, unknown or repeated keys,
// malformed JSON) returns nil, and the caller parses the line fully, which also words the error.

#if canImport(Glibc)
    import Glibc
#endif

/// The parts of a bulk request line, as found by `NDJSONRequestScanner.scan`.
struct NDJSONRequestFields {
    var token: String?
    /// Where the payload object's bytes are in the line.
    var payload: Range<Int>?
    /// The payload's bytes are the `knownPayload` given to `scan` (and were not read again).
    var payloadIsKnown = false
    /// Header keys and their values as text (strings as they are, integers as written).
    var headers: [(key: String, value: String)] = []
}

enum NDJSONRequestScanner {
    static let maximumDepth = 64
    /// The keys a line may have, each at most once (`payload` and `token` first: see `keySlot`).
    static let keys = [
        "payload", "token", "apns-topic", "apns-push-type", "apns-priority", "apns-expiration", "apns-collapse-id",
        "apns-id",
    ]
    /// `keys` as bytes, for matching a key where it lies in the line (no string per key).
    private static let keyBytes = keys.map { Array($0.utf8) }

    /// The line's fields, or nil when the line is not in the simple form (see above).
    ///
    /// `knownPayload`: a payload an earlier line had (the scan accepted it). When the line's
    /// payload starts with exactly those bytes, it is that payload (a JSON object ends where its
    /// bytes say), so it is not validated again: bulk files often send one payload to many tokens.
    static func scan(_ line: [UInt8], knownPayload: [UInt8] = []) -> NDJSONRequestFields? {
        line.withUnsafeBufferPointer { scan($0, knownPayload: knownPayload) }
    }

    /// `scan` over a line's bytes where they lie.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, knownPayload: [UInt8]) -> NDJSONRequestFields? {
        guard let base = bytes.baseAddress else { return nil }
        var scanner = Cursor(base: base, count: bytes.count)
        return knownPayload.withUnsafeBufferPointer { known in scanner.line(knownPayload: known) }
    }

    /// The index in `keys` of the key whose bytes are `key`, or nil.
    private static func keySlot(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
        for slot in keyBytes.indices where keyBytes[slot].count == key.count {
            let same = keyBytes[slot].withUnsafeBufferPointer { known in
                guard let a = known.baseAddress, let b = key.baseAddress else { return known.isEmpty }
                return memcmp(a, b, key.count) == 0
            }
            if same { return slot }
        }
        return nil
    }

    /// Whether all eight bytes of `word` are printable ASCII other than `"` and `\`. A false
    /// answer only sends the scan byte by byte, which decides exactly: the zero-byte tests
    /// below can misfire only above a byte that really matches.
    @inline(__always)
    static func plainWord(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        let control = (word &- ones &* 0x20) & ~word & highs  // a byte under 0x20 (given no high bit)
        let stops = hasZero(word ^ (ones &* 0x22)) | hasZero(word ^ (ones &* 0x5C)) | hasZero(word ^ (ones &* 0x7F))
        return (word & highs) | control | stops == 0
    }

    private struct Cursor {
        /// The line's bytes (`count` of them): read through a pointer, the position checked once
        /// per step rather than once more per access.
        let base: UnsafePointer<UInt8>
        let count: Int
        var position = 0

        init(base: UnsafePointer<UInt8>, count: Int) {
            self.base = base
            self.count = count
        }

        private func text(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count), as: UTF8.self)
        }

        mutating func line(knownPayload known: UnsafeBufferPointer<UInt8>) -> NDJSONRequestFields? {
            var fields = NDJSONRequestFields()
            var seen: UInt32 = 0  // bit i: NDJSONRequestScanner.keys[i] was read
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return nil }
            skipSpace()
            if take(UInt8(ascii: "}")) { return atEnd() ? fields : nil }
            while true {
                skipSpace()
                guard let keyRange = string(),
                    let slot = NDJSONRequestScanner.keySlot(
                        UnsafeBufferPointer(start: base + keyRange.lowerBound, count: keyRange.count)),
                    seen & (1 << slot) == 0
                else { return nil }
                seen |= 1 << slot
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                switch slot {
                case 0:  // payload
                    guard peek == UInt8(ascii: "{") else { return nil }
                    let start = position
                    if !known.isEmpty, let knownBase = known.baseAddress, count - position >= known.count,
                        memcmp(base + position, knownBase, known.count) == 0
                    {
                        position += known.count
                        fields.payloadIsKnown = true
                    } else {
                        guard value(depth: 0, compact: true) else { return nil }
                    }
                    fields.payload = start..<position
                case 1:  // token
                    guard let range = string() else { return nil }
                    fields.token = text(range)
                default:  // a header
                    // A value that starts with a quote is a string or nothing: a broken string must
                    // not fall back to reading the digits inside it as an integer.
                    guard let range = peek == UInt8(ascii: "\"") ? string() : integer() else { return nil }
                    fields.headers.append((NDJSONRequestScanner.keys[slot], text(range)))
                }
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                guard take(UInt8(ascii: "}")) else { return nil }
                return atEnd() ? fields : nil
            }
        }

        /// Whether only spaces are left. (Not handed the fields to return: copying them in and
        /// out goes through the generic `Optional` copy, a value-witness call per field.)
        private mutating func atEnd() -> Bool {
            skipSpace()
            return position == count
        }

        private var peek: UInt8? { position < count ? base[position] : nil }

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
            var at = position
            // Eight bytes at a time while none of them needs a look (see `plainWord`), then byte by byte.
            while at + 8 <= count,
                NDJSONRequestScanner.plainWord(UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self))
            {
                at += 8
            }
            while at < count {
                let byte = base[at]
                if byte == UInt8(ascii: "\"") {
                    position = at + 1
                    return start..<at
                }
                // Printable ASCII (0x20...0x7E) but the backslash, in one comparison and one test.
                guard byte &- 0x20 < 0x5F, byte != UInt8(ascii: "\\") else { return nil }
                at += 1
            }
            return nil
        }

        /// An integer (`-`? digits, no leading zero): the range of its text.
        private mutating func integer() -> Range<Int>? {
            let start = position
            _ = take(UInt8(ascii: "-"))
            let digits = position
            while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { position += 1 }
            let digitCount = position - digits
            guard digitCount > 0, digitCount == 1 || base[digits] != UInt8(ascii: "0") else { return nil }
            if let byte = peek, byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                return nil
            }
            return start..<position
        }

        /// Any JSON value, validated; with `compact`, no whitespace is allowed outside strings.
        private mutating func value(depth: Int, compact: Bool) -> Bool {
            guard depth < NDJSONRequestScanner.maximumDepth, let byte = peek else { return false }
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
            let length = text.utf8CodeUnitCount
            guard count - position >= length else { return false }
            for offset in 0..<length where base[position + offset] != text.utf8Start[offset] { return false }
            position += length
            return true
        }

        /// A JSON number: `-`? int frac? exp?
        private mutating func number() -> Bool {
            _ = take(UInt8(ascii: "-"))
            let digits = position
            skipDigits()
            let digitCount = position - digits
            guard digitCount > 0, digitCount == 1 || base[digits] != UInt8(ascii: "0") else { return false }
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
