/// A reusable list of headers that change per request or response (`:path`, `apns-id`, ...).
///
/// Keep one per connection, `removeAll()` it before each request and append the changing fields:
/// after the first few requests it allocates nothing. nghttp2 copies these fields when the request is
/// submitted, so the buffer can be reused at once. Values are not validated here (that would cost
/// on every request); build them from validated input.
public struct HTTP2HeaderBuffer: Sendable {
    struct Entry: Sendable {
        var start: Int
        var nameCount: Int
        var valueCount: Int
        var neverIndex: Bool
        var isPseudo: Bool
    }

    /// Names and values back to back. Only the first `byteCount` bytes are in use: the array keeps
    /// its length as it is reused, so appending a field is one copy into it, not an array append
    /// per part (which cost ~70 instructions each, several per field).
    private(set) var bytes: [UInt8] = []
    private(set) var byteCount = 0
    private(set) var entries: [Entry] = []
    private(set) var pseudoCount = 0

    public init() {}

    public init(_ headers: [HTTP2Header]) {
        for header in headers {
            append(name: header.name, value: header.value, neverIndex: header.neverIndex)
        }
    }

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }

    /// Empties the buffer, keeping its storage for the next request.
    public mutating func removeAll() {
        byteCount = 0
        entries.removeAll(keepingCapacity: true)
        pseudoCount = 0
    }

    public mutating func append(_ name: String, _ value: String, neverIndex: Bool = false) {
        append(name: name.utf8, value: value.utf8, neverIndex: neverIndex)
    }

    public mutating func append(_ header: HTTP2Header) {
        append(name: header.name, value: header.value, neverIndex: header.neverIndex)
    }

    public mutating func append(
        name: some Collection<UInt8>, value: some Collection<UInt8>, neverIndex: Bool = false
    ) {
        let name = Array(name)
        let value = Array(value)
        name.withUnsafeBytes { name in
            value.withUnsafeBytes { value in append(name: name, value: value, neverIndex: neverIndex) }
        }
    }

    /// Appends a field from raw bytes, its value in two parts (`valuePrefix`, then `value`; for
    /// `/3/device/` and a token, say): straight copies, for the hot path.
    public mutating func append(
        name: UnsafeRawBufferPointer, valuePrefix: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0),
        value: UnsafeRawBufferPointer, neverIndex: Bool = false
    ) {
        let start = byteCount
        let end = start + name.count + valuePrefix.count + value.count
        if end > bytes.count {
            bytes.append(contentsOf: repeatElement(0, count: max(end - bytes.count, bytes.count, 256)))
        }
        bytes.withUnsafeMutableBytes { storage in
            // `end <= bytes.count` was ensured above: plain pointer copies, no slice bounds checks.
            guard let base = storage.baseAddress else { return }
            var cursor = base + start
            Self.copy(name, to: &cursor)
            Self.copy(valuePrefix, to: &cursor)
            Self.copy(value, to: &cursor)
        }
        byteCount = end
        let isPseudo = name.first == UInt8(ascii: ":")
        entries.append(
            Entry(
                start: start, nameCount: name.count, valueCount: valuePrefix.count + value.count,
                neverIndex: neverIndex, isPseudo: isPseudo))
        if isPseudo { pseudoCount += 1 }
    }

    /// Overwrites the value of field `index` with `value`, of the same length (false, and nothing
    /// changed, when the length differs or there is no such field): a buffer built once and
    /// refilled in place, for answers whose fields keep their shape (an id per answer).
    public mutating func replaceValue(at index: Int, with value: UnsafeRawBufferPointer) -> Bool {
        guard entries.indices.contains(index), entries[index].valueCount == value.count else { return false }
        let start = entries[index].start + entries[index].nameCount
        bytes.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress, let source = value.baseAddress else { return }
            (base + start).copyMemory(from: source, byteCount: value.count)
        }
        return true
    }

    @inline(__always)
    private static func copy(_ part: UnsafeRawBufferPointer, to cursor: inout UnsafeMutableRawPointer) {
        guard let source = part.baseAddress, !part.isEmpty else { return }
        cursor.copyMemory(from: source, byteCount: part.count)
        cursor += part.count
    }

    /// The fields as ``HTTP2Header`` values (allocates; for tests and diagnostics).
    public var headers: [HTTP2Header] {
        entries.map { entry in
            let nameEnd = entry.start + entry.nameCount
            return HTTP2Header(
                name: Array(bytes[entry.start..<nameEnd]),
                value: Array(bytes[nameEnd..<nameEnd + entry.valueCount]),
                neverIndex: entry.neverIndex)
        }
    }
}
