#if canImport(Glibc)
    import Glibc
#endif

/// The header fields of a received request or response, in arrival order, pseudo-headers included.
///
/// All names and values sit in one byte array with an index beside it: receiving a header costs no
/// allocation of its own, and looking one up by name compares bytes. Trailers, if any, follow.
public struct HTTP2ReceivedHeaders: Sendable, RandomAccessCollection {
    struct Field: Sendable {
        var start: UInt32
        var nameCount: UInt32
        var valueCount: UInt32

        var nameRange: Range<Int> { Int(start)..<Int(start + nameCount) }
        var valueRange: Range<Int> { Int(start + nameCount)..<Int(start + nameCount + valueCount) }
    }

    /// Names and values back to back in the first `used` bytes; the rest is room, zero-filled, so
    /// that a field is stored with two `memcpy`s instead of two `append`s (each checks uniqueness
    /// and capacity and updates the count, for every field of every request).
    private(set) var bytes: [UInt8] = []
    private(set) var used = 0
    private(set) var fields: [Field] = []

    public init() {}

    public init(_ headers: [HTTP2Header]) {
        for header in headers {
            header.name.withUnsafeBufferPointer { name in
                header.value.withUnsafeBufferPointer { value in append(name: name, value: value) }
            }
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { fields.count }

    /// The field at `position` (allocates its name and value).
    public subscript(position: Int) -> HTTP2Header {
        let field = fields[position]
        return HTTP2Header(name: Array(bytes[field.nameRange]), value: Array(bytes[field.valueRange]))
    }

    /// The bytes of the first value for `name` (lowercase), without allocating.
    public func valueBytes(for name: String) -> ArraySlice<UInt8>? {
        guard let field = fields.first(where: { matches($0, name) }) else { return nil }
        return bytes[field.valueRange]
    }

    /// Whether the first value for `name` (lowercase) is `value`, byte for byte. Over the storage
    /// and the static strings directly: the server asks it of every request (is it HEAD?), where
    /// ``valueBytes(for:)`` and a comparison with a `String.UTF8View` went through generic code.
    func firstValue(named name: StaticString, is value: StaticString) -> Bool {
        bytes.withUnsafeBufferPointer { stored in
            guard let base = stored.baseAddress else { return false }
            for field in fields where Int(field.nameCount) == name.utf8CodeUnitCount {
                guard memcmp(base + Int(field.start), name.utf8Start, name.utf8CodeUnitCount) == 0 else { continue }
                return Int(field.valueCount) == value.utf8CodeUnitCount
                    && memcmp(base + Int(field.start + field.nameCount), value.utf8Start, value.utf8CodeUnitCount) == 0
            }
            return false
        }
    }

    /// The first value for `name` (lowercase), decoded as UTF-8.
    public func value(for name: String) -> String? {
        valueBytes(for: name).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { matches($0, name) }.map { String(decoding: bytes[$0.valueRange], as: UTF8.self) }
    }

    private func matches(_ field: Field, _ name: String) -> Bool {
        guard Int(field.nameCount) == name.utf8.count else { return false }
        // Byte by byte over contiguous storage: `elementsEqual` with a String.UTF8View goes through
        // the generic collection machinery for every byte.
        let start = Int(field.start)
        return name.utf8.withContiguousStorageIfAvailable { name in
            bytes.withUnsafeBufferPointer { stored in
                var offset = 0
                while offset < name.count, stored[start + offset] == name[offset] { offset += 1 }
                return offset == name.count
            }
        } ?? bytes[field.nameRange].elementsEqual(name.utf8)
    }

    mutating func append(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        let start = used
        let end = start + name.count + value.count
        if end > bytes.count {
            bytes.append(contentsOf: repeatElement(0, count: Swift.max(end - bytes.count, bytes.count, 256)))
        }
        bytes.withUnsafeMutableBytes { storage in
            // `end <= bytes.count` was ensured above.
            guard let base = storage.baseAddress else { return }
            if let source = name.baseAddress { (base + start).copyMemory(from: source, byteCount: name.count) }
            if let source = value.baseAddress {
                (base + start + name.count).copyMemory(from: source, byteCount: value.count)
            }
        }
        used = end
        fields.append(
            Field(
                start: UInt32(truncatingIfNeeded: start), nameCount: UInt32(truncatingIfNeeded: name.count),
                valueCount: UInt32(truncatingIfNeeded: value.count)))
    }

    /// Empties the list, keeping storage unless it grew past `keepingAtMost` bytes.
    mutating func reset(keepingAtMost limit: Int) {
        used = 0
        if bytes.count > limit {
            bytes = []
            fields = []
        } else if !fields.isEmpty {  // (emptying an empty array still costs calls)
            fields.removeAll(keepingCapacity: true)  // the bytes stay, as room for the next fields
        }
    }
}
