// A notification's deliveries, page by page: its `deliveries` rows (failures, retries, rows of an
// older Herald) and the members of its success batches (`SQLiteSuccessBatch`), merged in one order
// by their listing keys. The cursor is the key of the page's last entry; both kinds are read after
// it, rows by deliveries_by_notification, batches by delivery_successes_by_notification.
import APNs
import Storage

extension SQLiteGatewayStore {
    /// One entry of a listing: a row or a batch member, and its key.
    typealias ListedDelivery = (key: Int, delivery: Delivery)

    public func deliveries(notificationID: NotificationID, after cursor: Int?, limit: Int)
        async throws(GatewayStoreError) -> DeliveryPage
    {
        try await withDatabase { database in
            let limit = StoreLimits.clamp(limit)
            let cursor = max(0, cursor ?? 0)
            guard
                let seq = try database.query(
                    "SELECT seq FROM notifications WHERE id = ?", [.text(notificationID)], row: { $0.int(0) }
                ).first ?? nil
            else { return DeliveryPage(deliveries: [], nextCursor: nil) }
            // One entry more than asked says whether there is a next page.
            var entries: [ListedDelivery] = try database.select(
                """
                SELECT \(Self.deliveryColumns) FROM deliveries
                    WHERE notification_seq = ? AND seq > ? ORDER BY seq LIMIT ?
                """, [.integer(seq), .integer(SQLiteSuccessBatch.seq(of: cursor)), .integer(limit + 1)],
                table: "deliveries", Self.readDelivery
            ).map { (SQLiteSuccessBatch.key(row: $0.id), $0) }
            // Batches in order until limit + 1 members past the cursor are read, or none are left.
            var members = 0
            var after = SQLiteSuccessBatch.seq(of: cursor) - 1
            while members <= limit {
                let batches = try Self.successBatches(
                    where: "b.notification_seq = ? AND b.seq > ? ORDER BY b.seq LIMIT 8",
                    [.integer(seq), .integer(after)], in: database)
                for batch in batches {
                    let listed = batch.filter { $0.key > cursor }
                    members += listed.count
                    entries += listed
                }
                guard batches.count == 8, let last = batches.last?.last else { break }
                after = SQLiteSuccessBatch.seq(of: last.key)
            }
            entries.sort { $0.key < $1.key }
            let page = entries.prefix(limit)
            return DeliveryPage(
                deliveries: page.map(\.delivery), nextCursor: entries.count > limit ? page.last?.key : nil)
        }
    }

    /// The members of the success batches selected by `condition` (on `delivery_successes b`), each
    /// batch's members in order, as deliveries keyed for a listing.
    static func successBatches(where condition: String, _ values: [SQLiteValue], in database: SQLiteDatabase)
        throws -> [[ListedDelivery]]
    {
        try database.select(
            """
            SELECT b.seq, n.id, b.kind, b.recorded_at, b.members FROM delivery_successes b
                JOIN notifications n ON n.seq = b.notification_seq
                WHERE \(condition)
            """, values, table: "delivery_successes"
        ) { row throws(GatewayStoreError) in
            let seq = try row.int(0, "seq")
            let notificationID = try row.string(1, "notification_id")
            let kind: Delivery.Kind = try row.value(2, "kind")
            let recordedAt = try row.int(3, "recorded_at")
            guard let members = SQLiteSuccessBatch(bytes: try row.bytes(4, "members")).members() else {
                throw row.corrupt("members", "batch \(seq)")
            }
            return try members.enumerated().map { position, member throws(GatewayStoreError) in
                guard let apnsID = SQLiteAPNsID.read(.blob(member.apnsID)) else {
                    throw row.corrupt("members", "batch \(seq)")
                }
                return (
                    SQLiteSuccessBatch.key(batch: seq, position: position),
                    Delivery(
                        id: SQLiteSuccessBatch.key(batch: seq, position: position), notificationID: notificationID,
                        kind: kind, recipient: member.recipient, environment: member.environment, apnsID: apnsID,
                        status: .succeeded, attempts: 1, nextAttemptAt: recordedAt, lastAttemptAt: recordedAt,
                        apnsUniqueID: member.apnsUniqueID)
                )
            }
        }
    }
}
