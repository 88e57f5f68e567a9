/// A small set of lowercase header names, checked against a received name without allocating.
///
/// A client session given one (``HTTP2SessionConfiguration/keptResponseHeaders``) stores only the
/// response fields it names: the rest are counted against the header list limit and dropped
/// without being copied. Most names a server sends are rejected by their length alone (one bit
/// test); a name whose length matches is compared byte by byte with the few names of that length.
///
/// Immutable; Sendable.
public struct HTTP2HeaderNameSet: Sendable, Equatable {
    /// The names, back to back.
    private let bytes: [UInt8]
    /// Each name's start and length in `bytes`.
    private let ranges: [Range<Int>]
    /// Bit `n` is set when some name is `n` bytes long (bit 63: 63 bytes or more).
    private let lengths: UInt64

    /// `names` must be lowercase, as HTTP/2 field names are on the wire (RFC 9113 section 8.2.1).
    public init(_ names: [String]) {
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        var lengths: UInt64 = 0
        for name in names where !name.isEmpty {
            let start = bytes.count
            bytes.append(contentsOf: name.utf8)
            ranges.append(start..<bytes.count)
            lengths |= Self.lengthBit(bytes.count - start)
        }
        self.bytes = bytes
        self.ranges = ranges
        self.lengths = lengths
    }

    /// Bit `n` set: some name in the set is `n` bytes long (bit 63: 63 bytes or more). A name whose
    /// bit is clear is not in the set.
    public var lengthMask: UInt64 { lengths }

    /// The bit of ``lengthMask`` for a name of `count` bytes.
    @inline(__always)
    public static func lengthBit(_ count: Int) -> UInt64 {
        UInt64(1) << UInt64(min(count, 63))
    }

    /// The names in the set.
    public var names: [String] {
        ranges.map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    /// Whether `name` (as received: lowercase) is in the set.
    @inline(__always)
    public func contains(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lengths & Self.lengthBit(name.count) != 0 else { return false }
        return containsSameLength(name)
    }

    private func containsSameLength(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = name.baseAddress else { return false }
        return bytes.withUnsafeBufferPointer { storage in
            guard let stored = storage.baseAddress else { return false }
            for range in ranges where range.count == name.count && stored[range.lowerBound] == base[0] {
                var offset = 1
                while offset < name.count, stored[range.lowerBound + offset] == base[offset] { offset += 1 }
                if offset == name.count { return true }
            }
            return false
        }
    }

}
