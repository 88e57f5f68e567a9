/// Deliveries waiting for the writer: a ring of at most `limit` entries that overwrites its oldest
/// when full, so appending never blocks and never grows memory past the limit.
struct PendingDeliveries {
    let limit: Int
    /// Compact records (DeliveryRecord): the request path makes no Strings, and neither does the
    /// writer (the SQLite store writes the records' bytes).
    private var storage: [DeliveryRecord] = []
    /// Where the oldest entry is once the ring is full.
    private var start = 0
    /// Forget what the store kept before these entries.
    var clearFirst = false
    /// Requests answered in all, these included.
    var total: Int

    /// An empty ring; `storage` is an emptied array whose capacity is reused (the previous batch's).
    init(limit: Int, total: Int, reusing storage: [DeliveryRecord] = []) {
        self.limit = max(1, limit)
        self.total = total
        self.storage = storage
        self.storage.removeAll(keepingCapacity: true)
    }

    var count: Int { storage.count }
    var isEmpty: Bool { storage.isEmpty && !clearFirst }

    /// Adds `delivery`; true when the oldest waiting entry had to make room.
    mutating func append(_ delivery: DeliveryRecord) -> Bool {
        total += 1
        if storage.count < limit {
            storage.append(delivery)
            return false
        }
        storage[start] = delivery
        start = (start + 1) % limit
        return true
    }

    /// Forgets what waits and what was written: the next batch clears the store first.
    mutating func clear() {
        storage = []
        start = 0
        total = 0
        clearFirst = true
    }

    /// The waiting entries, oldest first, as one batch (the ring's own array unless it wrapped).
    consuming func batch() -> DeliveryBatch {
        let records = start == 0 ? storage : Array(storage[start...] + storage[..<start])
        return DeliveryBatch(clearFirst: clearFirst, records: records, total: total)
    }
}
