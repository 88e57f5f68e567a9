// A recipient's deliveries across notifications, newest first (a device's history in the console).
// Its rows: index `deliveries_by_recipient` (migration 3) walks one recipient's rows backwards by
// seq; the notification's app is checked per row by its rowid. Its successes in batches
// (`SQLiteSuccessBatch`) have no index by recipient (one entry per success is what batches save):
// a page scans at most `historyBatchScan` batches, newest first from the cursor, for the
// recipient's bytes (instr, in SQLite), and decodes only the batches that hold them. When that
// bound stops a page short, its next cursor continues the scan below the last batch read, so a
// page may hold fewer entries than asked (even none) and still have a next one.
import APNs
import Storage

extension SQLiteGatewayStore {
    /// How many success batches (of up to a chunk's members each) one page of a history reads.
    static let historyBatchScan = 1_000

    public func deliveries(bundleID: String, kind: Delivery.Kind, recipient: String, before cursor: Int?, limit: Int)
        async throws(GatewayStoreError) -> DeliveryPage
    {
        try await withDatabase { database in
            let limit = StoreLimits.clamp(limit)
            // Entries with keys below the cursor; a row's key is its seq << 14, so rows below the
            // first seq whose key reaches it.
            let cursor = cursor ?? Int.max
            let rowBound = cursor == Int.max ? Int.max : (cursor + SQLiteSuccessBatch.key(row: 1) - 1) >> 14
            // One entry more than asked says whether there is a next page.
            var entries: [ListedDelivery] = try database.select(
                """
                SELECT \(Self.deliveryColumns) FROM deliveries
                    WHERE recipient = ? AND kind = ? AND seq < ?
                        AND EXISTS (SELECT 1 FROM notifications n WHERE n.seq = notification_seq AND n.bundle_id = ?)
                    ORDER BY seq DESC LIMIT ?
                """,
                [
                    .text(recipient), .text(kind.rawValue), .integer(rowBound), .text(bundleID),
                    .integer(limit + 1),
                ],
                table: "deliveries", Self.readDelivery
            ).map { (SQLiteSuccessBatch.key(row: $0.id), $0) }
            let newest = SQLiteSuccessBatch.seq(of: cursor)
            let scanned = try database.query(
                """
                SELECT count(*), min(seq) FROM
                    (SELECT seq FROM delivery_successes WHERE seq <= ? ORDER BY seq DESC LIMIT ?)
                """, [.integer(newest), .integer(Self.historyBatchScan)]
            ) { ($0.int(0) ?? 0, $0.int(1)) }.first
            let batches = try Self.successBatches(
                where: """
                    b.seq IN (SELECT seq FROM delivery_successes WHERE seq <= ? ORDER BY seq DESC LIMIT ?)
                        AND b.kind = ? AND n.bundle_id = ? AND instr(b.members, ?) > 0
                    """,
                [
                    .integer(newest), .integer(Self.historyBatchScan), .text(kind.rawValue), .text(bundleID),
                    .blob(Array(recipient.utf8)),
                ], in: database)
            for batch in batches {
                entries += batch.filter { $0.key < cursor && $0.delivery.recipient == recipient }
            }
            entries.sort { $0.key > $1.key }
            // Below the oldest batch read, entries are not known yet: the bound ends the page there.
            if let scanned, scanned.0 == Self.historyBatchScan, let oldest = scanned.1 {
                let floor = SQLiteSuccessBatch.key(batch: oldest, position: 0)
                entries.removeAll { $0.key < floor }
                if entries.count <= limit {
                    return DeliveryPage(deliveries: entries.map(\.delivery), nextCursor: floor)
                }
            }
            let page = entries.prefix(limit)
            return DeliveryPage(
                deliveries: page.map(\.delivery), nextCursor: entries.count > limit ? page.last?.key : nil)
        }
    }
}
