// What HTTP/2 calls a malformed request (RFC 9113 sections 8.1.1, 8.2 and 8.3), checked by the
// server session itself, with nghttp2's own "HTTP messaging" checks turned off for servers. nghttp2
// walks every header byte through a table for them; these checks read names, values and paths eight
// bytes at a time. The verdicts are those of the nghttp2 this links (1.52): `RequestFieldCheckTests`
// feeds thousands of hand-built requests, CONNECT and small limits included, to a session of each
// kind and requires the same outcome for every one.
//
// Any of these resets the stream with PROTOCOL_ERROR:
//   - per field, in arrival order: an empty name; a name with a character outside the lowercase
//     token set; a value with a control character other than HTAB, DEL, or whitespace at either
//     end; an unknown, repeated, empty or late (after a regular field, or in trailers)
//     pseudo-header; a bad :method (token), :path (no space or control character), :scheme or
//     :authority; connection-specific fields; `te` other than "trailers"; a second or non-numeric
//     content-length;
//   - once the header block ends: no :method, :scheme or :path, or neither :authority nor host
//     (CONNECT has its own rule); an http(s) :path that starts with neither "/" nor, for OPTIONS,
//     is "*";
//   - trailers that do not end the stream; a body longer than content-length, or shorter at its end.

/// The state of one request's checks. A value type kept in the stream's slot; not thread-safe.
struct RequestFieldCheck {
    enum Verdict {
        /// Keep the field.
        case keep
        /// Reset the stream with PROTOCOL_ERROR.
        case malformed
    }

    private struct Flags: OptionSet {
        let rawValue: UInt16
        static let authority = Flags(rawValue: 1 << 0)
        static let method = Flags(rawValue: 1 << 1)
        static let path = Flags(rawValue: 1 << 2)
        static let scheme = Flags(rawValue: 1 << 3)
        static let host = Flags(rawValue: 1 << 4)
        static let pseudoDisallowed = Flags(rawValue: 1 << 5)
        static let connect = Flags(rawValue: 1 << 6)
        static let options = Flags(rawValue: 1 << 7)
        static let pathRegular = Flags(rawValue: 1 << 8)
        static let pathAsterisk = Flags(rawValue: 1 << 9)
        static let schemeHTTP = Flags(rawValue: 1 << 10)
    }

    private var flags: Flags = []
    /// The declared content-length, -1 when none.
    private(set) var contentLength: Int64 = -1
    /// DATA bytes received so far.
    private(set) var received: Int64 = 0

    /// Checks one field of the request's header block (`trailer`: of its trailers).
    mutating func field(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>, trailer: Bool) -> Verdict {
        guard let first = name.first else { return .malformed }
        if first == UInt8(ascii: ":") {
            guard !trailer, !flags.contains(.pseudoDisallowed) else { return .malformed }
            return pseudoField(name: name, value: value)
        }
        flags.insert(.pseudoDisallowed)
        guard Self.isRegularName(name) else { return .malformed }
        switch Self.specialField(name) {
        case .host:
            guard Self.isAuthority(value) else { return .malformed }
            return take(.host, value) ? .keep : .malformed
        case .contentLength:
            guard contentLength == -1, let length = Self.decimal(value) else { return .malformed }
            contentLength = length
            return .keep
        case .connectionSpecific:
            return .malformed
        case .te:
            return Self.equalsLowercase(value, "trailers") ? .keep : .malformed
        case .none:
            return Self.isFieldValue(value) ? .keep : .malformed
        }
    }

    /// Takes a regular field that `field` has accepted before, with the same name and value (a
    /// repeated provider token): only its place in the block is checked.
    mutating func repeatedField() {
        flags.insert(.pseudoDisallowed)
    }

    /// Whether the request's header block, now complete, has what a request needs.
    mutating func headersComplete() -> Bool {
        if flags.contains(.connect) {
            contentLength = -1  // content-length means nothing on CONNECT (nghttp2 drops it too)
            return flags.isDisjoint(with: [.scheme, .path]) && flags.contains(.authority)
        }
        guard flags.isSuperset(of: [.method, .path, .scheme]), !flags.isDisjoint(with: [.authority, .host]) else {
            return false
        }
        // An http(s) path starts with "/", or is "*" for OPTIONS.
        return !flags.contains(.schemeHTTP) || flags.contains(.pathRegular)
            || flags.isSuperset(of: [.options, .pathAsterisk])
    }

    /// Counts a DATA chunk; false once the body exceeds content-length.
    mutating func data(count: Int) -> Bool {
        received += Int64(count)
        return contentLength == -1 || received <= contentLength
    }

    /// Whether the body, now complete, matches content-length.
    func endStream() -> Bool {
        contentLength == -1 || received == contentLength
    }

    // MARK: Pseudo-headers

    private mutating func pseudoField(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> Verdict {
        switch name.count {
        case 5 where Self.equals(name, ":path"):
            guard Self.isPath(value), take(.path, value) else { return .malformed }
            if value[0] == UInt8(ascii: "/") {
                flags.insert(.pathRegular)
            } else if value.count == 1, value[0] == UInt8(ascii: "*") {
                flags.insert(.pathAsterisk)
            }
        case 7 where Self.equals(name, ":method"):
            guard Self.isToken(value), take(.method, value) else { return .malformed }
            if Self.equals(value, "CONNECT") {
                flags.insert(.connect)
            } else if Self.equals(value, "OPTIONS") {
                flags.insert(.options)
            }
        case 7 where Self.equals(name, ":scheme"):
            guard Self.isScheme(value), take(.scheme, value) else { return .malformed }
            if Self.equalsLowercase(value, "http") || Self.equalsLowercase(value, "https") {
                flags.insert(.schemeHTTP)
            }
        case 10 where Self.equals(name, ":authority"):
            guard Self.isAuthority(value), take(.authority, value) else { return .malformed }
        default:
            return .malformed  // :status, :protocol (extended CONNECT is not enabled) or unknown
        }
        return .keep
    }

    /// Records a pseudo-header (or host): false if it came already, or is empty.
    private mutating func take(_ flag: Flags, _ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !flags.contains(flag), !value.isEmpty else { return false }
        flags.insert(flag)
        return true
    }

    // MARK: Regular fields

    enum SpecialField { case none, host, contentLength, connectionSpecific, te }

    /// Names as little-endian words: a name of up to 8 bytes as ``shortWord(_:)`` reads it, a
    /// longer one by its first and last eight bytes (``word(_:at:)``).
    enum Words {
        static var status: UInt64 { 0x0073_7574_6174_733A }
        static var te: UInt64 { 0x6574 }
        static var host: UInt64 { 0x7473_6F68 }
        static var upgrade: UInt64 { 0x0065_6461_7267_7075 }
        static var connection: (first: UInt64, last: UInt64) { (0x6974_6365_6E6E_6F63, 0x6E6F_6974_6365_6E6E) }
        static var keepAlive: (first: UInt64, last: UInt64) { (0x696C_612D_7065_656B, 0x6576_696C_612D_7065) }
        static var contentLength: (first: UInt64, last: UInt64) { (0x2D74_6E65_746E_6F63, 0x6874_676E_656C_2D74) }
        static var proxyConnection: (first: UInt64, last: UInt64) { (0x6F63_2D79_786F_7270, 0x6E6F_6974_6365_6E6E) }
        static var transferEncoding: (first: UInt64, last: UInt64) { (0x7265_6673_6E61_7274, 0x676E_6964_6F63_6E65) }
    }

    /// Lowercase token characters only: the common names (a-z, 0-9 and "-") eight bytes at a time,
    /// the last word overlapping the one before it.
    @inline(__always)
    static func isRegularName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = name.baseAddress else { return false }
        if name.count >= 8 {
            if allWords(of: name, base: base, satisfy: isPlainNameWord) { return true }
        } else if isPlainNameWord(shortWord(name) | padding(name.count)) {
            return true  // a short name, padded with "a" to a word
        }
        return name.allSatisfy { CharacterSet.fieldName.contains($0) }
    }

    /// The bytes of a field of at most eight bytes (at least one) as a little-endian word, zero
    /// above them: two overlapping four-byte loads from four bytes up, byte by byte below.
    @inline(__always)
    static func shortWord(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let base = bytes.baseAddress else { return 0 }
        let count = bytes.count
        if count >= 4 {
            let low = UInt64(UInt32(littleEndian: UnsafeRawPointer(base).loadUnaligned(as: UInt32.self)))
            let high = UInt64(UInt32(littleEndian: UnsafeRawPointer(base + count - 4).loadUnaligned(as: UInt32.self)))
            return low | high << UInt64(8 * (count - 4))
        }
        var word: UInt64 = 0
        for index in 0..<count {
            word |= UInt64(base[index]) << UInt64(8 * index)
        }
        return word
    }

    /// "a" in each byte above the first `count` (1 to 7) of a word: a byte every word check passes.
    @inline(__always)
    static func padding(_ count: Int) -> UInt64 {
        0x6161_6161_6161_6161 & ~(UInt64.max >> UInt64(64 - 8 * count))
    }

    /// Eight bytes at `offset` as a little-endian word.
    @inline(__always)
    static func word(_ base: UnsafePointer<UInt8>, at offset: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
    }

    /// Whether every eight-byte word of `bytes` (at least eight of them) satisfies `test`: the
    /// words from the start, then the last eight bytes (overlapping) for the rest.
    @inline(__always)
    static func allWords(
        of bytes: UnsafeBufferPointer<UInt8>, base: UnsafePointer<UInt8>, satisfy test: (UInt64) -> Bool
    ) -> Bool {
        var position = 0
        while position + 8 <= bytes.count {
            guard test(UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)) else { return false }
            position += 8
        }
        return position == bytes.count
            || test(UnsafeRawPointer(base + bytes.count - 8).loadUnaligned(as: UInt64.self))
    }

    /// Whether all eight bytes are a-z, 0-9 or "-". ASCII only (no high bit); then, as adding
    /// 0x80 - bound to a byte below 0x80 sets its high bit exactly when the byte is at least the
    /// bound (no carry into the next byte), each byte within one of the three ranges.
    @inline(__always)
    static func isPlainNameWord(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        guard word & highs == 0 else { return false }
        @inline(__always) func atLeast(_ bound: UInt64) -> UInt64 { (word &+ ones &* (0x80 - bound)) & highs }
        let letter = atLeast(0x61) & ~atLeast(0x7B)
        let digit = atLeast(0x30) & ~atLeast(0x3A)
        let dash = atLeast(0x2D) & ~atLeast(0x2E)
        return letter | digit | dash == highs
    }

    /// The regular field names HTTP/2's rules single out, of requests and responses alike, compared
    /// as words (a name is a candidate only at its exact length).
    static func specialField(_ name: UnsafeBufferPointer<UInt8>) -> SpecialField {
        guard let base = name.baseAddress else { return .none }
        func matches(_ words: (first: UInt64, last: UInt64), lastAt offset: Int) -> Bool {
            word(base, at: 0) == words.first && word(base, at: offset) == words.last
        }
        switch name.count {
        case 2: return shortWord(name) == Words.te ? .te : .none
        case 4: return shortWord(name) == Words.host ? .host : .none
        case 7: return shortWord(name) == Words.upgrade ? .connectionSpecific : .none
        case 10:
            return matches(Words.connection, lastAt: 2) || matches(Words.keepAlive, lastAt: 2)
                ? .connectionSpecific : .none
        case 14: return matches(Words.contentLength, lastAt: 6) ? .contentLength : .none
        case 16: return matches(Words.proxyConnection, lastAt: 8) ? .connectionSpecific : .none
        case 17: return matches(Words.transferEncoding, lastAt: 9) ? .connectionSpecific : .none
        default: return .none
        }
    }

    /// RFC 9113 8.2.1: no NUL, CR, LF or other control character but HTAB, and no whitespace at
    /// either end. Eight bytes at a time until a word holds a byte below 0x20 or DEL.
    @inline(__always)
    static func isFieldValue(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = value.baseAddress, let first = value.first, let last = value.last else { return true }
        if first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09 { return false }
        if value.count >= 8 {
            if allWords(of: value, base: base, satisfy: { !hasControlByte($0) }) { return true }
        } else if !hasControlByte(shortWord(value) | padding(value.count)) {
            return true  // a short value, padded with "a" to a word
        }
        return value.allSatisfy { ($0 >= 0x20 || $0 == 0x09) && $0 != 0x7F }
    }

    /// Whether any byte of `word` is below 0x20 or is 0x7F (exact for "any": the classic tests).
    @inline(__always)
    static func hasControlByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let below = (word &- ones &* 0x20) & ~word & highs
        let delete = word ^ (ones &* 0x7F)
        let isDelete = (delete &- ones) & ~delete & highs
        return below | isDelete != 0
    }

    // MARK: Character classes

    private static func isToken(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        !value.isEmpty && value.allSatisfy { CharacterSet.token.contains($0) }
    }

    /// No control character, space or DEL (non-ASCII allowed), eight bytes at a time.
    private static func isPath(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = value.baseAddress, !value.isEmpty else { return false }
        if value.count >= 8, allWords(of: value, base: base, satisfy: isPathWord) { return true }
        return value.allSatisfy { $0 > 0x20 && $0 != 0x7F }
    }

    /// No byte of `word` is 0x20 or below, or 0x7F.
    @inline(__always)
    private static func isPathWord(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let below = (word &- ones &* 0x21) & ~word & highs
        let delete = word ^ (ones &* 0x7F)
        return below | ((delete &- ones) & ~delete & highs) == 0
    }

    private static func isAuthority(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        value.allSatisfy { CharacterSet.authority.contains($0) }
    }

    /// A letter, then letters, digits, "+", "-" or ".".
    private static func isScheme(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = value.first, CharacterSet.letters.contains(first) else { return false }
        return value.allSatisfy { CharacterSet.scheme.contains($0) }
    }

    /// A non-negative decimal that fits an `Int64`.
    static func decimal(_ value: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard !value.isEmpty else { return nil }
        var result: Int64 = 0
        for byte in value {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, overflow) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflow, !overflow2 else { return nil }
            result = sum
        }
        return result
    }

    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        for index in 0..<bytes.count where bytes[index] != text.utf8Start[index] { return false }
        return true
    }

    /// `bytes` in ASCII lowercase are `text` (lowercase).
    static func equalsLowercase(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        for index in 0..<bytes.count {
            let byte = bytes[index]
            let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
            if lower != text.utf8Start[index] { return false }
        }
        return true
    }
}

/// A set of ASCII bytes as a 128-bit mask: constants, no table in memory and no lazy global per
/// lookup. `RequestFieldCheckTests` checks each mask against the characters it stands for.
struct CharacterSet {
    let low: UInt64
    let high: UInt64

    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        if byte < 64 { return low >> UInt64(byte) & 1 != 0 }
        if byte < 128 { return high >> UInt64(byte - 64) & 1 != 0 }
        return false
    }

    /// RFC 9110 tchar, lowercase only (field names): ``!#$%&'*+-.^_`|~``, digits, a-z.
    static var fieldName: CharacterSet { CharacterSet(low: 0x03FF_6CFA_0000_0000, high: 0x57FF_FFFF_C000_0000) }
    /// RFC 9110 tchar (methods): the above and A-Z.
    static var token: CharacterSet { CharacterSet(low: 0x03FF_6CFA_0000_0000, high: 0x57FF_FFFF_C7FF_FFFE) }
    /// What nghttp2 1.52 accepts in :authority and host: `!$%&'()*+,-.:;=@[]_~`, digits, letters.
    static var authority: CharacterSet { CharacterSet(low: 0x2FFF_7FF2_0000_0000, high: 0x47FF_FFFE_AFFF_FFFF) }
    static var letters: CharacterSet { CharacterSet(low: 0, high: 0x07FF_FFFE_07FF_FFFE) }
    /// Letters, digits, "+", "-" and ".".
    static var scheme: CharacterSet { CharacterSet(low: 0x03FF_6800_0000_0000, high: 0x07FF_FFFE_07FF_FFFE) }
}
