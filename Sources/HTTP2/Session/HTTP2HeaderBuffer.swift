/// A reusable list of headers that change per request or response (`:path`, `apns-id`, ...).
///
/// Keep one per connection, `removeAll()` it before each request and append the changing fields:
/// after the first few requests it allocates nothing. nghttp2 copies these fields when the request is
/// submitted, so the buffer can be reused at once. Values are not validated here (that would cost
/// on every request); build them from validated input.
///
/// A value type over one storage object (copied on write): appending a field checks once that the
/// storage is not shared, then copies the bytes with plain pointer copies. (Two arrays, as before,
/// cost two uniqueness checks and the array machinery per field.)
public struct HTTP2HeaderBuffer: Sendable {
    struct Entry: Sendable {
        var start: Int
        var nameCount: Int
        var valueCount: Int
        var neverIndex: Bool
        var isPseudo: Bool
        /// Sent as a plain (not Huffman-coded) never-indexed literal, put in by the session.
        var plainValue: Bool
    }

    /// Names and values back to back, and the fields' positions in them.
    final class Storage: @unchecked Sendable {
        // SAFETY: mutated only through a buffer holding the one reference to it (`unique()` copies a
        // shared one first); a shared storage is only read. The `@exclusivity(unchecked)` members are
        // never accessed across a call that could reach the same storage.
        @exclusivity(unchecked) var bytes: UnsafeMutablePointer<UInt8>
        @exclusivity(unchecked) var byteCapacity: Int
        @exclusivity(unchecked) var byteCount = 0
        @exclusivity(unchecked) var entries: UnsafeMutablePointer<Entry>
        @exclusivity(unchecked) var entryCapacity: Int
        @exclusivity(unchecked) var entryCount = 0
        @exclusivity(unchecked) var pseudoCount = 0
        @exclusivity(unchecked) var plainCount = 0
        @exclusivity(unchecked) var plainByteCount = 0

        init(byteCapacity: Int, entryCapacity: Int) {
            self.byteCapacity = max(byteCapacity, 16)
            self.entryCapacity = max(entryCapacity, 2)
            bytes = .allocate(capacity: self.byteCapacity)
            entries = .allocate(capacity: self.entryCapacity)
        }

        deinit {
            bytes.deallocate()
            entries.deinitialize(count: entryCount)
            entries.deallocate()
        }

        func copy() -> Storage {
            let copy = Storage(byteCapacity: byteCapacity, entryCapacity: entryCapacity)
            copy.bytes.update(from: bytes, count: byteCount)
            copy.entries.initialize(from: entries, count: entryCount)
            copy.byteCount = byteCount
            copy.entryCount = entryCount
            copy.pseudoCount = pseudoCount
            copy.plainCount = plainCount
            copy.plainByteCount = plainByteCount
            return copy
        }

        @inline(__always)
        func reserve(bytes needed: Int) {
            if needed > byteCapacity || entryCount == entryCapacity { grow(bytes: needed) }
        }

        @inline(never)
        func grow(bytes needed: Int) {
            if entryCount == entryCapacity { growEntries() }
            guard needed > byteCapacity else { return }
            let capacity = max(needed, byteCapacity * 2)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            grown.update(from: bytes, count: byteCount)
            bytes.deallocate()
            bytes = grown
            byteCapacity = capacity
        }

        func growEntries() {
            let capacity = entryCapacity * 2
            let grown = UnsafeMutablePointer<Entry>.allocate(capacity: capacity)
            grown.moveInitialize(from: entries, count: entryCount)
            entries.deallocate()
            entries = grown
            entryCapacity = capacity
        }
    }

    private var storage: Storage

    public init() {
        storage = Storage(byteCapacity: 256, entryCapacity: 8)
    }

    public init(_ headers: [HTTP2Header]) {
        storage = Storage(
            byteCapacity: headers.reduce(0) { $0 + $1.name.count + $1.value.count }, entryCapacity: headers.count)
        for header in headers {
            append(name: header.name, value: header.value, neverIndex: header.neverIndex)
        }
    }

    public var count: Int { storage.entryCount }
    /// The names' and values' bytes.
    var byteCount: Int { storage.byteCount }
    public var isEmpty: Bool { storage.entryCount == 0 }
    /// How many fields have plain values, and those values' bytes.
    var plainCount: Int { storage.plainCount }
    var plainByteCount: Int { storage.plainByteCount }

    /// The storage, copied first if another buffer shares it.
    @inline(__always)
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// Empties the buffer, keeping its storage for the next request.
    public mutating func removeAll() {
        let storage = unique()
        storage.entries.deinitialize(count: storage.entryCount)
        storage.byteCount = 0
        storage.entryCount = 0
        storage.pseudoCount = 0
        storage.plainCount = 0
        storage.plainByteCount = 0
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
    ///
    /// `plainValue`: the field is sent as a never-indexed literal whose value is a plain string
    /// (RFC 7541 section 5.2, H = 0), not Huffman-coded; the HTTP/2 session writes the value into
    /// the HEADERS frame itself (NGHTTP2Session+Splice.swift). For values that differ in every
    /// message (ids, a path with a device token): nghttp2 would Huffman-code each one to save a
    /// fifth of its bytes, at a cost per byte on both sides. Implies `neverIndex`. A block that
    /// might not fit one frame gets the field from nghttp2 as usual.
    public mutating func append(
        name: UnsafeRawBufferPointer,
        valuePrefix: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0),
        value: UnsafeRawBufferPointer, neverIndex: Bool = false, plainValue: Bool = false
    ) {
        let storage = unique()
        let start = storage.byteCount
        let end = start + name.count + valuePrefix.count + value.count
        storage.reserve(bytes: end)  // and room for one more entry
        var cursor = storage.bytes + start
        Self.copy(name, to: &cursor)
        Self.copy(valuePrefix, to: &cursor)
        Self.copy(value, to: &cursor)
        storage.byteCount = end
        let isPseudo = name.first == UInt8(ascii: ":")
        (storage.entries + storage.entryCount).initialize(
            to: Entry(
                start: start, nameCount: name.count, valueCount: valuePrefix.count + value.count,
                neverIndex: neverIndex || plainValue, isPseudo: isPseudo, plainValue: plainValue))
        storage.entryCount += 1
        if isPseudo { storage.pseudoCount += 1 }
        if plainValue {
            storage.plainCount += 1
            storage.plainByteCount += valuePrefix.count + value.count
        }
    }

    /// Overwrites the value of field `index` with `value`, of the same length (false, and nothing
    /// changed, when the length differs or there is no such field): a buffer built once and
    /// refilled in place, for answers whose fields keep their shape (an id per answer).
    public mutating func replaceValue(at index: Int, with value: UnsafeRawBufferPointer) -> Bool {
        guard index >= 0, index < storage.entryCount, storage.entries[index].valueCount == value.count else {
            return false
        }
        let storage = unique()
        let entry = storage.entries[index]
        if let source = value.baseAddress, !value.isEmpty {
            UnsafeMutableRawPointer(storage.bytes + entry.start + entry.nameCount).copyMemory(
                from: source, byteCount: value.count)
        }
        return true
    }

    /// Runs `body` over the bytes and the fields (valid only during the call; nghttp2 copies them).
    func withFields<Result>(
        _ body: (UnsafeMutablePointer<UInt8>, UnsafeBufferPointer<Entry>) -> Result
    ) -> Result {
        let storage = self.storage
        return withExtendedLifetime(storage) {
            body(storage.bytes, UnsafeBufferPointer(start: storage.entries, count: storage.entryCount))
        }
    }

    @inline(__always)
    private static func copy(_ part: UnsafeRawBufferPointer, to cursor: inout UnsafeMutablePointer<UInt8>) {
        guard let source = part.baseAddress, !part.isEmpty else { return }
        UnsafeMutableRawPointer(cursor).copyMemory(from: source, byteCount: part.count)
        cursor += part.count
    }

    /// The fields as ``HTTP2Header`` values (allocates; for tests and diagnostics).
    public var headers: [HTTP2Header] {
        withFields { bytes, entries in
            entries.map { entry in
                let name = UnsafeBufferPointer(start: bytes + entry.start, count: entry.nameCount)
                let value = UnsafeBufferPointer(start: bytes + entry.start + entry.nameCount, count: entry.valueCount)
                return HTTP2Header(name: Array(name), value: Array(value), neverIndex: entry.neverIndex)
            }
        }
    }
}
