// An app's Live Activity tokens a page at a time, for the console's lists. Activities page through
// the unique (bundle_id, activity_id) index; push-to-start tokens walk the primary key and skip other
// apps' rows (a console's page, not a hot path).
import APNs
import Storage

extension SQLiteGatewayStore {
    public func activityTokens(bundleID: String, after cursor: String?, limit: Int) async throws(GatewayStoreError)
        -> ActivityTokenPage
    {
        try await withDatabase { database in
            let limit = StoreLimits.clamp(limit)
            // One row more than asked says whether there is a next page.
            let rows = try database.select(
                """
                SELECT \(Self.activityColumns) FROM activity_tokens WHERE bundle_id = ? AND activity_id > ?
                    ORDER BY activity_id LIMIT ?
                """,
                [.text(bundleID), .text(cursor ?? ""), .integer(limit + 1)], table: "activity_tokens"
            ) { row throws(GatewayStoreError) in try Self.readActivity(row) }
            let page = Array(rows.prefix(limit))
            return ActivityTokenPage(activities: page, nextCursor: rows.count > limit ? page.last?.activityID : nil)
        }
    }

    public func pushToStartTokens(bundleID: String, after cursor: Int?, limit: Int) async throws(GatewayStoreError)
        -> PushToStartTokenPage
    {
        try await withDatabase { database in
            let limit = StoreLimits.clamp(limit)
            let rows = try database.select(
                """
                SELECT seq, \(Self.pushToStartColumns) FROM push_to_start_tokens WHERE bundle_id = ? AND seq > ?
                    ORDER BY seq LIMIT ?
                """,
                [.text(bundleID), .integer(cursor ?? 0), .integer(limit + 1)], table: "push_to_start_tokens"
            ) { row throws(GatewayStoreError) in
                (seq: try row.int(0, "seq"), token: try Self.readPushToStart(row, from: 1))
            }
            let page = Array(rows.prefix(limit))
            return PushToStartTokenPage(
                tokens: page.map(\.token), nextCursor: rows.count > limit ? page.last?.seq : nil)
        }
    }
}
