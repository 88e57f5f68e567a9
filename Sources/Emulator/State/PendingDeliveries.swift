/// Deliveries waiting for the log's writer, already encoded as the rows the store keeps
/// (`EncodedDeliveryRow`): at most `limit` entries and `rowLimit` rows (of at most 1 MiB each: the
/// rows copy the payloads the log's entries share), overwriting the oldest when full, so appending
/// never blocks and never grows memory past the limits. Kept under the `DeliveryLog`'s lock, with
/// the log's entries (one lock per answer); the writer takes it whole.
struct PendingDeliveries {
    let limit: Int
    /// Most rows waiting; beyond it the oldest row goes whole (only a writer far behind, with large
    /// payloads, meets it before `limit`).
    let rowLimit: Int
    /// Entries that make the writer start at once; so do `startRows` rows.
    let batchSize: Int
    static let startRows = 4
    /// Whether an overwritten entry is a loss on disk (it would have been among the newest kept).
    let overwritesAreLosses: Bool
    /// Full rows, oldest first, then the row filling.
    private(set) var rows: [EncodedDeliveryRow] = []
    /// Entries waiting.
    private(set) var count = 0
    /// Forget what the store kept before these entries.
    private(set) var clearFirst = false
    /// Requests answered in all, these included.
    private(set) var total: Int
    /// Whether the writer was asked to start and has not taken the entries yet.
    private var startRequested = false
    /// Entries overwritten while they waited that were a loss, since the start (never reset).
    private(set) var lost = 0
    /// Emptied row storage the writer handed back, for the next rows (at most `spareLimit`).
    private var spare: [RowStorage] = []
    private static let spareLimit = 4

    init(limit: Int, rowLimit: Int = 64, batchSize: Int, overwritesAreLosses: Bool, total: Int) {
        self.limit = max(1, limit)
        self.rowLimit = max(2, rowLimit)
        self.batchSize = max(1, batchSize)
        self.overwritesAreLosses = overwritesAreLosses
        self.total = total
    }

    var isEmpty: Bool { count == 0 && !clearFirst }

    /// Encodes `record` into the rows; true when the writer should start now (a batch is full and
    /// it was not asked yet).
    mutating func append(_ record: DeliveryRecord) -> Bool {
        record.withFields { append($0) }
    }

    /// `append(_:)` for an entry's borrowed values.
    mutating func append(_ fields: DeliveryFields) -> Bool {
        total += 1
        if count >= limit { dropOldest() }
        if rows.isEmpty || !rows[rows.count - 1].append(fields) {
            if rows.count >= rowLimit { dropOldestRow() }
            var row = EncodedDeliveryRow(reusing: spare.popLast())
            _ = row.append(fields)  // an empty row takes any record
            rows.append(row)
        }
        count += 1
        guard count >= batchSize || rows.count >= Self.startRows, !startRequested else { return false }
        startRequested = true
        return true
    }

    /// Drops the oldest row whole. Its entries are a loss: fewer than `limit` (so than the capacity)
    /// newer ones wait.
    private mutating func dropOldestRow() {
        let row = rows.removeFirst()
        lost += row.count
        count -= row.count
        recycle(row.storage)
    }

    private mutating func dropOldest() {
        if overwritesAreLosses { lost += 1 }
        count -= 1
        rows[0].skipOldest()
        if rows[0].isEmpty { recycle(rows.removeFirst().storage) }
    }

    /// Forgets what waits and what was written: the next batch clears the store first.
    mutating func clear() {
        for row in rows { recycle(row.storage) }
        rows = []
        count = 0
        total = 0
        clearFirst = true
    }

    /// What waits, as one batch, leaving the queue empty; nil when nothing waits.
    mutating func take() -> DeliveryBatch? {
        startRequested = false
        guard !isEmpty else { return nil }
        let batch = DeliveryBatch(clearFirst: clearFirst, rows: rows, total: total)
        rows = []
        count = 0
        clearFirst = false
        return batch
    }

    /// Keeps a written row's storage for the next rows.
    mutating func recycle(_ storage: RowStorage) {
        if spare.count < Self.spareLimit, storage.capacity == DeliveryRowLimits.bytes { spare.append(storage) }
    }
}
