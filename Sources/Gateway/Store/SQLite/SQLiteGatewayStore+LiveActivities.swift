import APNs
import Storage

extension SQLiteGatewayStore {
    static let pushToStartColumns =
        "bundle_id, token, environment, user_id, attributes_type, registered_at, status, status_reason"
    static let activityColumns =
        "bundle_id, activity_id, token, environment, user_id, registered_at, status, status_reason"

    public func upsertPushToStartToken(
        bundleID: String, token: DeviceToken, environment: Environment, user: String?, attributesType: String, now: Int
    ) async throws(GatewayStoreError) -> PushToStartToken {
        try await withDatabase { database in
            try database.run(
                """
                INSERT INTO push_to_start_tokens
                    (bundle_id, token, environment, user_id, attributes_type, registered_at, status)
                    VALUES (?, ?, ?, ?, ?, ?, 'active')
                    ON CONFLICT (bundle_id, token) DO UPDATE SET
                        environment = excluded.environment, user_id = excluded.user_id,
                        attributes_type = excluded.attributes_type, registered_at = excluded.registered_at,
                        status = 'active', status_reason = NULL
                """,
                [
                    .text(bundleID), .text(token.hex), .text(environment.rawValue), SQLiteValue(user),
                    .text(attributesType), .integer(now),
                ])
        }
        return PushToStartToken(
            bundleID: bundleID, token: token, environment: environment, user: user, attributesType: attributesType,
            registeredAt: now)
    }

    public func pushToStartTokens(bundleID: String, user: String) async throws(GatewayStoreError) -> [PushToStartToken]
    {
        try await withDatabase { database in
            try database.select(
                "SELECT \(Self.pushToStartColumns) FROM push_to_start_tokens WHERE bundle_id = ? AND user_id = ? ORDER BY seq",
                [.text(bundleID), .text(user)], table: "push_to_start_tokens"
            ) { row throws(GatewayStoreError) in try Self.readPushToStart(row) }
        }
    }

    public func deletePushToStartToken(bundleID: String, token: DeviceToken) async throws(GatewayStoreError) -> Bool {
        try await withDatabase { database in
            try database.run(
                "DELETE FROM push_to_start_tokens WHERE bundle_id = ? AND token = ?",
                [.text(bundleID), .text(token.hex)]) > 0
        }
    }

    public func upsertActivityToken(
        bundleID: String, activityID: String, token: DeviceToken, environment: Environment, user: String?, now: Int
    ) async throws(GatewayStoreError) -> ActivityToken {
        try await withDatabase { database in
            try database.run(
                """
                INSERT INTO activity_tokens (bundle_id, activity_id, token, environment, user_id, registered_at, status)
                    VALUES (?, ?, ?, ?, ?, ?, 'active')
                    ON CONFLICT (bundle_id, activity_id) DO UPDATE SET
                        token = excluded.token, environment = excluded.environment, user_id = excluded.user_id,
                        registered_at = excluded.registered_at, status = 'active', status_reason = NULL
                """,
                [
                    .text(bundleID), .text(activityID), .text(token.hex), .text(environment.rawValue),
                    SQLiteValue(user),
                    .integer(now),
                ])
        }
        return ActivityToken(
            bundleID: bundleID, activityID: activityID, token: token, environment: environment, user: user,
            registeredAt: now)
    }

    public func activityToken(bundleID: String, activityID: String) async throws(GatewayStoreError) -> ActivityToken? {
        try await withDatabase { database in
            try database.select(
                "SELECT \(Self.activityColumns) FROM activity_tokens WHERE bundle_id = ? AND activity_id = ?",
                [.text(bundleID), .text(activityID)], table: "activity_tokens"
            ) { row throws(GatewayStoreError) in try Self.readActivity(row) }.first
        }
    }

    public func deleteActivityToken(bundleID: String, activityID: String) async throws(GatewayStoreError) -> Bool {
        try await withDatabase { database in
            try database.run(
                "DELETE FROM activity_tokens WHERE bundle_id = ? AND activity_id = ?",
                [.text(bundleID), .text(activityID)])
                > 0
        }
    }

    public func prune(_ action: PruneAction, bundleID: String, kind: Delivery.Kind, token: String)
        async throws(GatewayStoreError) -> Bool
    {
        try await inTransaction { database in
            try Self.prune(action, bundleID: bundleID, kind: kind, token: token, in: database)
        }
    }

    /// Applies `action` to every row of the token (an activity token may serve several activities);
    /// in the caller's transaction. PostgreSQL: the same SELECT with FOR UPDATE.
    static func prune(
        _ action: PruneAction, bundleID: String, kind: Delivery.Kind, token: String, in database: SQLiteDatabase
    )
        throws -> Bool
    {
        guard let table = kind.tokenTable else { return false }
        let rows = try database.select(
            "SELECT seq, status, registered_at, environment FROM \(table) WHERE bundle_id = ? AND token = ?",
            [.text(bundleID), .text(token)], table: table
        ) { row throws(GatewayStoreError) in
            (
                try row.int(0, "seq"), try row.value(1, "status", as: TokenStatus.self),
                try row.int(2, "registered_at"),
                try row.value(3, "environment", as: Environment.self)
            )
        }
        var changed = false
        for (seq, status, registeredAt, environment) in rows {
            guard let next = action.newStatus(of: status, registeredAt: registeredAt, environment: environment) else {
                continue
            }
            try database.run(
                "UPDATE \(table) SET status = ?, status_reason = ? WHERE seq = ?",
                [.text(next.rawValue), .text(action.statusReason), .integer(seq)])
            changed = true
        }
        return changed
    }

    /// A push-to-start token from `pushToStartColumns`, which start at column `first`.
    static func readPushToStart(_ row: SQLiteRowReader, from first: Int32 = 0) throws(GatewayStoreError)
        -> PushToStartToken
    {
        PushToStartToken(
            bundleID: try row.string(first, "bundle_id"), token: try row.token(first + 1, "token"),
            environment: try row.value(first + 2, "environment"), user: row.optionalString(first + 3),
            attributesType: try row.string(first + 4, "attributes_type"),
            registeredAt: try row.int(first + 5, "registered_at"), status: try row.value(first + 6, "status"),
            statusReason: row.optionalString(first + 7))
    }

    /// A Live Activity's token from `activityColumns`.
    static func readActivity(_ row: SQLiteRowReader) throws(GatewayStoreError) -> ActivityToken {
        ActivityToken(
            bundleID: try row.string(0, "bundle_id"), activityID: try row.string(1, "activity_id"),
            token: try row.token(2, "token"), environment: try row.value(3, "environment"),
            user: row.optionalString(4), registeredAt: try row.int(5, "registered_at"),
            status: try row.value(6, "status"), statusReason: row.optionalString(7))
    }
}
