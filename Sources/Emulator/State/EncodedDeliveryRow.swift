// One future row of `delivery_batches`: delivery records encoded back to back (format 5,
// DeliveryRecord+CompactEncoding.swift) as the event loop appends them, so the log's writer thread gets the
// bytes it writes instead of records to encode (records stay on the loops: no reference counts
// touched, no record released, on the writer's thread), and the loop encodes each record while its
// bytes are still in its cache.
//
// A row keeps the limits of a stored row (at most `DeliveryRowLimits.entries` records and
// `DeliveryRowLimits.bytes` bytes, unless its one record is larger) and starts with a record that
// repeats nothing of another, so every row decodes alone. When the writer falls behind, the oldest
// waiting entries are overwritten: a row then skips its first `skipped` records, and `blob()`
// re-encodes the rest (rare: only a writer that fell behind pays it).
/// The most a stored row of the delivery log holds.
enum DeliveryRowLimits {
    /// Most entries in one row.
    static let entries = 8192
    /// Most bytes of records in one row, unless its one record is larger.
    static let bytes = 1 << 20
}

/// Encoded delivery records for one row, appended in place. Not thread-safe: one owner at a time
/// (the log's lock while it fills, then the writer thread).
struct EncodedDeliveryRow: Sendable {
    /// The allocation, `DeliveryRowLimits.bytes` (or one large record) reused from row to row.
    private(set) var storage: RowStorage
    /// Bytes written.
    private(set) var byteCount = 0
    /// Records encoded, skipped ones included.
    private(set) var encodedCount = 0
    /// Leading records overwritten while they waited (see the file comment).
    private(set) var skipped = 0
    /// What the next record may repeat of the previous one.
    private var context = CompactRecordContext()

    /// An empty row; `storage` is a buffer to reuse (its bytes are overwritten), if any.
    init(reusing storage: RowStorage? = nil) {
        self.storage = storage ?? RowStorage(capacity: DeliveryRowLimits.bytes)
    }

    /// Records waiting in the row (skipped ones not counted).
    var count: Int { encodedCount - skipped }
    var isEmpty: Bool { count == 0 }
    /// The bytes written, valid while the row (or its storage) lives.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage.base, count: byteCount) }

    /// Encodes `record` at the end; false (nothing written) when the row is full for it.
    mutating func append(_ record: DeliveryRecord) -> Bool {
        record.withFields { append($0) }
    }

    /// Encodes the entry at the end; false (nothing written) when the row is full for it.
    mutating func append(_ fields: DeliveryFields) -> Bool {
        let most = fields.compactBound
        if encodedCount > 0,
            encodedCount >= DeliveryRowLimits.entries || byteCount + most > DeliveryRowLimits.bytes
        {
            return false
        }
        write(fields, most: most)
        return true
    }

    /// Encodes the entry at the end, whatever the limits.
    private mutating func write(_ fields: DeliveryFields, most: Int) {
        if byteCount + most > storage.capacity { grow(to: byteCount + most) }
        byteCount += fields.encodeCompact(into: storage.base, at: byteCount, context: &context)
        encodedCount += 1
    }

    private mutating func grow(to size: Int) {
        grownTo(max(size, storage.capacity * 2))
    }

    private mutating func grownTo(_ capacity: Int) {
        let grown = RowStorage(capacity: capacity)
        grown.base.copyMemory(from: storage.base, byteCount: byteCount)
        storage = grown
    }

    /// Forgets the oldest record waiting (a writer that fell behind).
    mutating func skipOldest() {
        skipped = min(encodedCount, skipped + 1)
    }

    /// Gives up the storage (for reuse) of a row no longer read; the row is left empty.
    mutating func releaseStorage() -> RowStorage {
        let released = storage
        storage = RowStorage.none
        byteCount = 0
        encodedCount = 0
        skipped = 0
        return released
    }

    /// This row without its first `count` records (at least those it skips already).
    func skipping(_ count: Int) -> EncodedDeliveryRow {
        var row = self
        row.skipped = min(encodedCount, max(skipped, count))
        return row
    }

    /// Moves the bytes to storage of their size, when that saves more than half the room.
    mutating func shrinkToFit() {
        guard byteCount < storage.capacity / 2 else { return }
        grownTo(byteCount)
    }

    /// The waiting records, decoded (for stores that keep `Delivery` values, and tests).
    func records() -> [DeliveryRecord] {
        // `append` wrote these bytes, so they decode; were that ever not so, the row would read as
        // empty rather than crash.
        let all = (try? DeliveryRecord.decodeCompactAll(bytes)) ?? []
        return Array(all.dropFirst(skipped))
    }

    /// Decodes the waiting records one at a time, oldest first, until `body` returns false: only
    /// the record at hand (and the one before, which it may repeat) is held, whatever the row holds.
    func forEachRecord(_ body: (DeliveryRecord) -> Bool) {
        withExtendedLifetime(storage) {
            let raw = bytes
            var offset = 0
            var previous: DeliveryRecord?
            var index = 0
            while offset < raw.count {
                // `append` wrote these bytes, so they decode; were that ever not so, the rest of the
                // row would read as empty rather than crash.
                guard let record = try? DeliveryRecord.decodeCompact(raw, at: &offset, index: index, previous: previous)
                else { return }
                if index >= skipped, !body(record) { return }
                previous = record
                index += 1
            }
        }
    }

    /// Runs `body` with the row's blob: the bytes as they are, or the waiting records re-encoded
    /// when leading ones were skipped (the first kept one then carries what it repeated).
    func withBlob<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        if skipped == 0 { return try body(bytes) }
        var fresh = EncodedDeliveryRow(reusing: RowStorage(capacity: byteCount))
        for record in records() {
            record.withFields { fresh.write($0, most: $0.compactBound) }
        }
        return try withExtendedLifetime(fresh) { () throws(E) -> R in try body(fresh.bytes) }
    }

    /// `records` as rows within the limits, in order (each sized for what it holds).
    static func rows(of records: some Collection<DeliveryRecord>) -> [EncodedDeliveryRow] {
        var rows: [EncodedDeliveryRow] = []
        var row = EncodedDeliveryRow(reusing: RowStorage(capacity: 0))
        for record in records where !row.append(record) {
            rows.append(row)
            row = EncodedDeliveryRow(reusing: RowStorage(capacity: 0))
            _ = row.append(record)  // an empty row takes any record
        }
        if !row.isEmpty { rows.append(row) }
        return rows
    }
}

/// One allocation of bytes, freed with the object. Its fields never change (no exclusivity checks);
/// the bytes are written by the row that owns it.
// SAFETY: `@unchecked Sendable`: a row's storage has one writer at a time -- the log's lock while the
// row fills, the writer thread once it takes the rows, the log's lock again once handed back for
// reuse; each hand-over goes through that lock. Readers of the in-memory log (EncodedDeliveryRing)
// copy rows under the lock and read only the bytes written before (below the copy's `byteCount`),
// which are never written again while a copy holds the storage (it is reused only when unique).
final class RowStorage: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    let capacity: Int

    /// The storage of a row that gave its own up (`releaseStorage`): never written.
    static let none = RowStorage(capacity: 0)

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 8)
    }

    deinit { base.deallocate() }
}
