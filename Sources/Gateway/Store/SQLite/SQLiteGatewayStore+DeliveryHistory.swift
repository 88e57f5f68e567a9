// A recipient's deliveries across notifications, newest first (a device's history in the console).
// Index `deliveries_by_recipient` (migration 3) walks one recipient's rows backwards by seq; the
// notification's app is checked per row by its rowid.
import APNs
import Storage

extension SQLiteGatewayStore {
    public func deliveries(bundleID: String, kind: Delivery.Kind, recipient: String, before cursor: Int?, limit: Int)
        async throws(GatewayStoreError) -> DeliveryPage
    {
        try await withDatabase { database in
            let limit = StoreLimits.clamp(limit)
            // One row more than asked says whether there is a next page.
            let rows = try database.select(
                """
                SELECT \(Self.deliveryColumns) FROM deliveries
                    WHERE recipient = ? AND kind = ? AND seq < ?
                        AND EXISTS (SELECT 1 FROM notifications n WHERE n.seq = notification_seq AND n.bundle_id = ?)
                    ORDER BY seq DESC LIMIT ?
                """,
                [
                    .text(recipient), .text(kind.rawValue), .integer(cursor ?? Int(Int64.max)), .text(bundleID),
                    .integer(limit + 1),
                ],
                table: "deliveries", Self.readDelivery)
            let page = Array(rows.prefix(limit))
            return DeliveryPage(deliveries: page, nextCursor: rows.count > limit ? page.last?.id : nil)
        }
    }
}
