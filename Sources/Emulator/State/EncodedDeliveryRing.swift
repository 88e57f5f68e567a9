// The in-memory delivery log's entries as encoded rows (format 5, the bytes the store keeps), not
// as `DeliveryRecord` values: recording an answer encodes it at the end of the newest row (no
// allocation, nothing released), and the payload is copied into the row (or repeated by reference),
// so the request's body buffer stays unshared and the HTTP/2 session reuses it. Entries are decoded
// only when the log is read (the control API, tests, a restart's restore of a store).
//
//   rows[0] (its first `skipped` records overwritten) ... rows[last] (filling)
//
// The writer's queue (PendingDeliveries) is the newest rows, from a position on: the writer takes
// copies of them (sharing their storage, never written again below a copy's end) and seals the last.
//
// Invariants: `count` is the sum of the rows' waiting records and never exceeds `capacity`; no row
// is empty; when full, an append first skips the oldest record of `rows[0]` and drops the row once
// it has none left (its storage kept for the next row when no one else holds it). Memory is bounded
// by `capacity` entries plus the skipped head of the oldest row (less than one row's limits).
/// The delivery log's kept entries, oldest first, encoded. Not thread-safe: kept under the log's lock.
struct EncodedDeliveryRing {
    let capacity: Int
    /// Oldest first from `head` (rows before it were dropped: they go in bulk, so that dropping one
    /// of many small rows does not move all the others); the last one takes new records.
    private var all: [EncodedDeliveryRow] = []
    private var head = 0
    /// Entries kept.
    private(set) var count = 0
    /// A dropped row's storage, for the next row.
    private var spare: RowStorage?
    /// How many rows were dropped since the start: `rows.first` is row number `firstRow` (the
    /// writer's queue names rows by number, PendingDeliveries).
    private(set) var firstRow = 0
    /// The last row takes no more records (the writer took it): the next one starts a row.
    private var sealed = false

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Keeps `record` as the newest entry, overwriting the oldest when full.
    mutating func append(_ record: DeliveryRecord) {
        record.withFields { append($0) }
    }

    /// Keeps the entry as the newest, overwriting the oldest when full.
    mutating func append(_ fields: DeliveryFields) {
        if count >= capacity { dropOldest() }
        if head == all.count || sealed || !all[all.count - 1].append(fields) {
            var row = EncodedDeliveryRow(reusing: spare)
            spare = nil
            sealed = false
            _ = row.append(fields)  // an empty row takes any record
            all.append(row)
        }
        count += 1
    }

    private mutating func dropOldest() {
        all[head].skipOldest()
        count -= 1
        guard all[head].isEmpty else { return }
        var storage = all[head].releaseStorage()
        head += 1
        firstRow += 1
        if head >= 32, 2 * head >= all.count {
            all.removeFirst(head)
            head = 0
        }
        if storage.capacity == DeliveryRowLimits.bytes, isKnownUniquelyReferenced(&storage) { spare = storage }
    }

    /// The rows kept, oldest first.
    var rows: ArraySlice<EncodedDeliveryRow> { all[head...] }

    /// Forgets every entry.
    mutating func removeAll() {
        firstRow += all.count - head
        all = []
        head = 0
        count = 0
    }

    /// The number the next new row will have.
    var nextRow: Int { firstRow + all.count - head }

    /// Row number `number`, if kept.
    func row(_ number: Int) -> EncodedDeliveryRow? {
        let index = number - firstRow + head
        return index >= head && index < all.count ? all[index] : nil
    }

    /// Ends the last row: the next record starts a new one. A row ended early gives back the room it
    /// did not use (the writer takes rows at every interval, however few entries they hold).
    mutating func seal() {
        guard head < all.count, !sealed else { return }
        sealed = true
        all[all.count - 1].shrinkToFit()
    }

    /// The entries, oldest first, decoded.
    func records() -> [DeliveryRecord] {
        var records: [DeliveryRecord] = []
        records.reserveCapacity(count)
        for row in rows { records += row.records() }
        return records
    }
}
