// The delivery log on disk: the writer's batches become rows of `delivery_batches`, each row up to
// 8,192 entries or 1 MiB of records back to back in one blob (DeliveryRecord+Encoding.swift), so
// 8,192 entries are one INSERT of one value instead of 8,192 rows of twelve columns each. The row
// limit keeps every allocation for a row (ours, SQLite's record) at about 1 MiB however far the
// writer fell behind (a batch can hold `pendingLimit` entries), and the slack on disk small. The
// event loops encode the rows as they append (EncodedDeliveryRow); this file writes their bytes.
//
// Entries are numbered 1, 2, ... in the order written (`DELETE /control/v1/deliveries` starts again
// at 1); a row holds entries `first_seq...last_seq`. After each write:
// - the newest `capacity` entries are the ones kept: `counters['deliveries.first_kept']` is the
//   number of the oldest of them, and reading never returns an entry before it;
// - a row is deleted, whole, once none of its entries is kept. The file so holds the newest
//   `capacity` entries plus the older rest of the oldest row kept: fewer than `capacity` + 8,192.
// A batch larger than `capacity` is cut to its newest `capacity` entries before it is written.
import Storage

extension SQLiteEmulatorStore {
    public func write(_ batch: DeliveryBatch, capacity: Int) throws(EmulatorStoreError) {
        let capacity = max(0, capacity)
        try withDatabase { database in
            try database.transaction {
                if batch.clearFirst { try database.run("DELETE FROM delivery_batches") }
                // The rows as the loops encoded them, unless the batch is larger than the capacity.
                let count = batch.count
                let rows = count > capacity ? EncodedDeliveryRow.rows(of: batch.records.suffix(capacity)) : batch.rows
                var counters: [(String, Int)] = [("deliveries.total", batch.total)]
                if min(count, capacity) > 0 {
                    let previous = try database.query("SELECT max(last_seq) FROM delivery_batches") { $0.int(0) }
                    let first = (previous.first.flatMap { $0 } ?? 0) + 1
                    let last = first + min(count, capacity) - 1
                    try Self.insert(rows, first: first, into: database)
                    try database.run(
                        "DELETE FROM delivery_batches WHERE last_seq <= ?", [.integer(last - capacity)])
                    counters.append(("deliveries.first_kept", max(1, last - capacity + 1)))
                } else if batch.clearFirst {
                    counters.append(("deliveries.first_kept", 1))
                }
                for (name, value) in counters {
                    try database.run(
                        """
                        INSERT INTO counters (name, value) VALUES (?, ?)
                            ON CONFLICT (name) DO UPDATE SET value = excluded.value
                        """, [.text(name), .integer(value)])
                }
            }
        }
    }

    public func loadDeliveries(newest limit: Int) throws(EmulatorStoreError) -> (entries: [Delivery], total: Int) {
        try withDatabase { database in
            let counters = try database.query(
                "SELECT name, value FROM counters WHERE name IN ('deliveries.total', 'deliveries.first_kept')"
            ) { ($0.string(0) ?? "", $0.int(1) ?? 0) }
            let values = Dictionary(counters, uniquingKeysWith: { _, last in last })
            let total = values["deliveries.total"] ?? 0
            let limit = max(0, limit)
            guard limit > 0 else { return ([], total) }
            // The oldest entry wanted: the newest `limit` of those kept.
            let newest = try database.query("SELECT max(last_seq) FROM delivery_batches") { $0.int(0) }
            guard let last = newest.first.flatMap({ $0 }) else { return ([], total) }
            let oldest = max(values["deliveries.first_kept"] ?? 1, last - limit + 1)
            var records: [DeliveryRecord] = []
            let rows = try database.query(
                """
                SELECT first_seq, last_seq, records, format FROM delivery_batches WHERE last_seq >= ?
                    ORDER BY last_seq
                """,
                [.integer(oldest)]
            ) { ($0.int(0) ?? 0, $0.int(1) ?? 0, $0.bytes(2) ?? [], $0.int(3) ?? 0) }
            for (first, last, blob, format) in rows {
                guard format == 4 || format == 5 else {
                    throw EmulatorStoreError.corrupt(
                        table: "delivery_batches", column: "format",
                        value: "\(format) (batch \(first)...\(last); formats 4 and 5 are known)")
                }
                let decoded: [DeliveryRecord]
                do throws(DeliveryRecordDecodingError) {
                    // Format 5: at most the records the row declares, within the text budget of its
                    // size: a damaged row is refused, not decoded into gigabytes.
                    decoded =
                        format == 4
                        ? try DeliveryRecord.decodeAll(blob)
                        : try DeliveryRecord.decodeCompactAll(
                            blob, limit: max(0, last - first + 1),
                            textBudget: DeliveryRecord.textBudget(ofRow: blob.count))
                } catch {
                    throw EmulatorStoreError.corrupt(
                        table: "delivery_batches", column: "records", value: "batch \(first)...\(last): \(error)")
                }
                guard decoded.count == last - first + 1 else {
                    throw EmulatorStoreError.corrupt(
                        table: "delivery_batches", column: "records",
                        value: "batch \(first)...\(last) with \(decoded.count) records")
                }
                records += decoded.dropFirst(max(0, oldest - first))
            }
            return (records.map(\.delivery), total)
        }
    }

    /// Writes `rows` (each within the row limits) numbered from `first`.
    static func insert(_ rows: [EncodedDeliveryRow], first: Int, into database: SQLiteDatabase) throws(SQLiteError) {
        var next = first
        for row in rows where !row.isEmpty {
            let count = row.count
            _ = try row.withBlob { blob throws(SQLiteError) in
                try database.run(
                    "INSERT INTO delivery_batches (last_seq, first_seq, count, format, records) VALUES (?, ?, ?, 5, ?)",
                    [.integer(next + count - 1), .integer(next), .integer(count)], blobInPlace: blob)
            }
            next += count
        }
    }

    /// Writes `records` as rows of format-4 records numbered from `first`, each within the row limits
    /// (schema step 3, which knows no `format` column yet).
    private static func insertFormat4(
        _ records: [DeliveryRecord], first: Int, into database: SQLiteDatabase
    ) throws(SQLiteError) {
        var start = 0
        var next = first
        while start < records.count {
            var end = start
            var bytes = 0
            while end < records.count, end - start < DeliveryRowLimits.entries {
                let size = records[end].encodedSize
                if end > start, bytes + size > DeliveryRowLimits.bytes { break }
                bytes += size
                end += 1
            }
            try database.run(
                "INSERT INTO delivery_batches (last_seq, first_seq, count, records) VALUES (?, ?, ?, ?)",
                [.integer(next + end - start - 1), .integer(next), .integer(end - start)],
                blob: DeliveryRecord.encode(records[start..<end]))
            next += end - start
            start = end
        }
    }

    /// Schema step 3: the rows of version 2's `deliveries` table become rows of batches (within the
    /// row limits), numbered from 1 in their order, all kept; then the table goes.
    static func convertDeliveryRows(_ database: SQLiteDatabase) throws {
        try convertDeliveryRows(
            from: database.prepare(
                """
                SELECT received_at, token, topic, push_type, priority, apns_id, unique_id, status, reason, payload,
                    channel, fault
                FROM deliveries ORDER BY seq
                """), into: database)
        try database.run(
            """
            INSERT INTO counters (name, value) VALUES ('deliveries.first_kept', 1)
                ON CONFLICT (name) DO UPDATE SET value = excluded.value
            """)
        try database.execute("DROP TABLE deliveries")  // after the statement reading it is finalized
    }

    private static func convertDeliveryRows(
        from statement: SQLiteStatement, into database: SQLiteDatabase
    ) throws(SQLiteError) {
        var pending: [DeliveryRecord] = []
        var next = 1
        func flush() throws(SQLiteError) {
            guard !pending.isEmpty else { return }
            try insertFormat4(pending, first: next, into: database)
            next += pending.count
            pending.removeAll(keepingCapacity: true)
        }
        while try statement.step() {
            let row = statement
            pending.append(
                DeliveryRecord(
                    Delivery(
                        receivedAt: row.int(0) ?? 0, token: row.string(1), topic: row.string(2),
                        pushType: row.string(3), priority: row.int(4), apnsID: row.string(5),
                        uniqueID: row.string(6), status: row.int(7) ?? 0, reason: row.string(8),
                        payload: row.bytes(9) ?? [], channel: row.string(10), fault: row.string(11))))
            if pending.count == DeliveryRowLimits.entries { try flush() }
        }
        try flush()
    }
}
