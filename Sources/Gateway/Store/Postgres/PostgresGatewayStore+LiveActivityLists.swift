// An app's Live Activity tokens a page at a time, for the console's lists. Activity ids compare
// byte by byte (COLLATE "C", as SQLite and the in-memory store order them, whatever the database's
// collation); push-to-start tokens walk the primary key and skip other apps' rows (a console's page,
// not a hot path).
import APNs
import Postgres

extension PostgresGatewayStore {
    public func activityTokens(bundleID: String, after cursor: String?, limit: Int) async throws(GatewayStoreError)
        -> ActivityTokenPage
    {
        try await withConnection { connection in
            let limit = StoreLimits.clamp(limit)
            // One row more than asked says whether there is a next page.
            let rows = try connection.select(
                """
                SELECT \(Self.activityColumns) FROM activity_tokens
                    WHERE bundle_id = $1 AND activity_id COLLATE "C" > $2
                    ORDER BY activity_id COLLATE "C" LIMIT $3
                """,
                [.text(bundleID), .text(cursor ?? ""), PostgresValue(limit + 1)], table: "activity_tokens"
            ) { row throws(GatewayStoreError) in try Self.readActivity(row) }
            let page = Array(rows.prefix(limit))
            return ActivityTokenPage(activities: page, nextCursor: rows.count > limit ? page.last?.activityID : nil)
        }
    }

    public func pushToStartTokens(bundleID: String, after cursor: Int?, limit: Int) async throws(GatewayStoreError)
        -> PushToStartTokenPage
    {
        try await withConnection { connection in
            let limit = StoreLimits.clamp(limit)
            let rows = try connection.select(
                """
                SELECT seq, \(Self.pushToStartColumns) FROM push_to_start_tokens WHERE bundle_id = $1 AND seq > $2
                    ORDER BY seq LIMIT $3
                """,
                [.text(bundleID), PostgresValue(cursor ?? 0), PostgresValue(limit + 1)], table: "push_to_start_tokens"
            ) { row throws(GatewayStoreError) in
                (seq: try row.int(0, "seq"), token: try Self.readPushToStart(row, from: 1))
            }
            let page = Array(rows.prefix(limit))
            return PushToStartTokenPage(
                tokens: page.map(\.token), nextCursor: rows.count > limit ? page.last?.seq : nil)
        }
    }
}
