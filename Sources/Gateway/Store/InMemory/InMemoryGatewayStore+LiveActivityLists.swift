import APNs

extension InMemoryGatewayStore {
    /// Sorts the app's activities on every call: this store is for tests and small runs.
    public func activityTokens(bundleID: String, after cursor: String?, limit: Int) async throws(GatewayStoreError)
        -> ActivityTokenPage
    {
        state.withLock { state in
            let limit = StoreLimits.clamp(limit)
            // Byte order, as SQLite's BINARY collation and PostgreSQL's "C" compare.
            let precedes = { (a: String, b: String) in a.utf8.lexicographicallyPrecedes(b.utf8) }
            let rows = state.activities.values
                .filter { activity in
                    activity.bundleID == bundleID && (cursor.map { precedes($0, activity.activityID) } ?? true)
                }
                .sorted { precedes($0.activityID, $1.activityID) }
                .prefix(limit + 1)
            let page = Array(rows.prefix(limit))
            return ActivityTokenPage(activities: page, nextCursor: rows.count > limit ? page.last?.activityID : nil)
        }
    }

    public func pushToStartTokens(bundleID: String, after cursor: Int?, limit: Int) async throws(GatewayStoreError)
        -> PushToStartTokenPage
    {
        state.withLock { state in
            let limit = StoreLimits.clamp(limit)
            var rows: [(seq: Int, token: PushToStartToken)] = []
            for (index, stored) in state.pushToStart.enumerated().dropFirst(max(0, cursor ?? 0))
            where rows.count <= limit {
                guard let stored, stored.bundleID == bundleID else { continue }
                rows.append((index + 1, stored))
            }
            let page = Array(rows.prefix(limit))
            return PushToStartTokenPage(
                tokens: page.map(\.token), nextCursor: rows.count > limit ? page.last?.seq : nil)
        }
    }
}
