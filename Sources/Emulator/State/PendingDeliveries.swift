// The log's entries that wait for the writer are the newest of the in-memory log's own encoded rows
// (EncodedDeliveryRing): each entry is encoded once, on the loop, and the writer takes copies of
// those rows (sharing their storage) instead of rows encoded a second time.
//
//   ring rows:  ... | row w (its first `index` records written or dropped) | ... | last row (filling)
//                         ^ waiting from (w, index)
//
// `take` hands the writer rows w... (the first skipping `index` records) and seals the last row,
// so the next entry starts a new row (`nextRow`, index 0) and the writer's copies are never written
// again. More than `limit` entries waiting: the oldest waiting one is dropped (the position moves
// on; a loss when `overwritesAreLosses`). Since `limit` <= the log's capacity, the ring never
// overwrites an entry still waiting before the queue has dropped it.
/// What waits for the log's writer: a position in the log's rows and a count. Kept under the
/// `DeliveryLog`'s lock, with the log's entries (one lock per answer); the writer takes it whole.
struct PendingDeliveries {
    let limit: Int
    /// Entries that make the writer start at once; so do `startRows` rows.
    let batchSize: Int
    static let startRows = 4
    /// Whether an overwritten entry is a loss on disk (it would have been among the newest kept).
    let overwritesAreLosses: Bool
    /// The first waiting entry: row number and record index in it.
    private var row: Int
    private var index = 0
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

    /// A queue of the entries `ring` gets from now on (its last row is sealed: they start a new one).
    init(limit: Int, batchSize: Int, overwritesAreLosses: Bool, total: Int, after ring: inout EncodedDeliveryRing) {
        self.limit = max(1, limit)
        self.batchSize = max(1, batchSize)
        self.overwritesAreLosses = overwritesAreLosses
        self.total = total
        ring.seal()
        row = ring.nextRow
    }

    var isEmpty: Bool { count == 0 && !clearFirst }

    /// Counts the entry `ring` just appended; true when the writer should start now (a batch is full
    /// and it was not asked yet).
    mutating func appended(to ring: EncodedDeliveryRing) -> Bool {
        total += 1
        count += 1
        if count > limit {
            if overwritesAreLosses { lost += 1 }
            count -= 1
            index += 1
        }
        normalize(ring)
        guard count >= batchSize || ring.nextRow - row >= Self.startRows, !startRequested else { return false }
        startRequested = true
        return true
    }

    /// Moves the position past rows it has no records left in (but not past the last row: its next
    /// record is the next waiting one).
    private mutating func normalize(_ ring: EncodedDeliveryRing) {
        if row < ring.firstRow {
            row = ring.firstRow
            index = 0
        }
        while row < ring.nextRow - 1, let current = ring.row(row), index >= current.encodedCount {
            row += 1
            index = 0
        }
    }

    /// Forgets what waits and what was written: the next batch clears the store first.
    mutating func clear(_ ring: EncodedDeliveryRing) {
        row = ring.nextRow
        index = 0
        count = 0
        total = 0
        clearFirst = true
    }

    /// What waits, as one batch, leaving the queue empty (and `ring`'s last row sealed); nil when
    /// nothing waits.
    mutating func take(from ring: inout EncodedDeliveryRing) -> DeliveryBatch? {
        startRequested = false
        guard !isEmpty else { return nil }
        ring.seal()
        var rows: [EncodedDeliveryRow] = []
        for number in row..<ring.nextRow {
            guard let kept = ring.row(number) else { continue }
            let waiting = number == row ? kept.skipping(index) : kept
            if !waiting.isEmpty { rows.append(waiting) }
        }
        let batch = DeliveryBatch(clearFirst: clearFirst, rows: rows, total: total)
        row = ring.nextRow
        index = 0
        count = 0
        clearFirst = false
        return batch
    }
}
