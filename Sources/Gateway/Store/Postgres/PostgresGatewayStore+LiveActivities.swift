import APNs
import Postgres

extension PostgresGatewayStore {
    static let pushToStartColumns =
        "bundle_id, token, environment, user_id, attributes_type, registered_at, status, status_reason"
    static let activityColumns =
        "bundle_id, activity_id, token, environment, user_id, registered_at, status, status_reason"

    public func upsertPushToStartToken(
        bundleID: String, token: DeviceToken, environment: Environment, user: String?, attributesType: String, now: Int
    ) async throws(GatewayStoreError) -> PushToStartToken {
        try await withConnection { connection in
            try connection.run(
                """
                INSERT INTO push_to_start_tokens
                    (bundle_id, token, environment, user_id, attributes_type, registered_at, status)
                    VALUES ($1, $2, $3, $4, $5, $6, 'active')
                    ON CONFLICT (bundle_id, token) DO UPDATE SET
                        environment = excluded.environment, user_id = excluded.user_id,
                        attributes_type = excluded.attributes_type, registered_at = excluded.registered_at,
                        status = 'active', status_reason = NULL
                """,
                [
                    .text(bundleID), .text(token.hex), .text(environment.rawValue), PostgresValue(user),
                    .text(attributesType), PostgresValue(now),
                ])
        }
        return PushToStartToken(
            bundleID: bundleID, token: token, environment: environment, user: user, attributesType: attributesType,
            registeredAt: now)
    }

    public func pushToStartTokens(bundleID: String, user: String) async throws(GatewayStoreError) -> [PushToStartToken]
    {
        try await withConnection { connection in
            try connection.select(
                """
                SELECT \(Self.pushToStartColumns) FROM push_to_start_tokens
                    WHERE bundle_id = $1 AND user_id = $2 ORDER BY seq
                """,
                [.text(bundleID), .text(user)], table: "push_to_start_tokens"
            ) { row throws(GatewayStoreError) in try Self.readPushToStart(row) }
        }
    }

    public func deletePushToStartToken(bundleID: String, token: DeviceToken) async throws(GatewayStoreError) -> Bool {
        try await withConnection { connection in
            try connection.run(
                "DELETE FROM push_to_start_tokens WHERE bundle_id = $1 AND token = $2",
                [.text(bundleID), .text(token.hex)]) > 0
        }
    }

    public func upsertActivityToken(
        bundleID: String, activityID: String, token: DeviceToken, environment: Environment, user: String?, now: Int
    ) async throws(GatewayStoreError) -> ActivityToken {
        try await withConnection { connection in
            try connection.run(
                """
                INSERT INTO activity_tokens (bundle_id, activity_id, token, environment, user_id, registered_at, status)
                    VALUES ($1, $2, $3, $4, $5, $6, 'active')
                    ON CONFLICT (bundle_id, activity_id) DO UPDATE SET
                        token = excluded.token, environment = excluded.environment, user_id = excluded.user_id,
                        registered_at = excluded.registered_at, status = 'active', status_reason = NULL
                """,
                [
                    .text(bundleID), .text(activityID), .text(token.hex), .text(environment.rawValue),
                    PostgresValue(user), PostgresValue(now),
                ])
        }
        return ActivityToken(
            bundleID: bundleID, activityID: activityID, token: token, environment: environment, user: user,
            registeredAt: now)
    }

    public func activityToken(bundleID: String, activityID: String) async throws(GatewayStoreError) -> ActivityToken? {
        try await withConnection { connection in
            try connection.select(
                "SELECT \(Self.activityColumns) FROM activity_tokens WHERE bundle_id = $1 AND activity_id = $2",
                [.text(bundleID), .text(activityID)], table: "activity_tokens"
            ) { row throws(GatewayStoreError) in try Self.readActivity(row) }.first
        }
    }

    public func deleteActivityToken(bundleID: String, activityID: String) async throws(GatewayStoreError) -> Bool {
        try await withConnection { connection in
            try connection.run(
                "DELETE FROM activity_tokens WHERE bundle_id = $1 AND activity_id = $2",
                [.text(bundleID), .text(activityID)]) > 0
        }
    }

    public func prune(_ action: PruneAction, bundleID: String, kind: Delivery.Kind, token: String)
        async throws(GatewayStoreError) -> Bool
    {
        try await inTransaction { connection in
            try Self.prune(action, bundleID: bundleID, kind: kind, token: token, in: connection)
        }
    }

    /// Applies `action` to every row of the token (an activity token may serve several activities);
    /// in the caller's transaction. The rows are read `FOR UPDATE`: an upload of the same token by
    /// another process waits, so the rule decides on the `registered_at` that will be kept.
    static func prune(
        _ action: PruneAction, bundleID: String, kind: Delivery.Kind, token: String, in connection: PostgresConnection
    ) throws -> Bool {
        guard let table = kind.tokenTable else { return false }
        let rows = try connection.select(
            """
            SELECT seq, status, registered_at, environment FROM \(table)
                WHERE bundle_id = $1 AND token = $2 FOR UPDATE
            """,
            [.text(bundleID), .text(token)], table: table
        ) { row throws(GatewayStoreError) in
            (
                try row.int(0, "seq"), try row.value(1, "status", as: TokenStatus.self),
                try row.int(2, "registered_at"), try row.value(3, "environment", as: Environment.self)
            )
        }
        var changed = false
        for (seq, status, registeredAt, environment) in rows {
            guard let next = action.newStatus(of: status, registeredAt: registeredAt, environment: environment) else {
                continue
            }
            try connection.run(
                "UPDATE \(table) SET status = $1, status_reason = $2 WHERE seq = $3",
                [.text(next.rawValue), .text(action.statusReason), PostgresValue(seq)])
            changed = true
        }
        return changed
    }

    /// A push-to-start token from `pushToStartColumns`, which start at column `first`.
    static func readPushToStart(_ row: PostgresRowReader, from first: Int = 0) throws(GatewayStoreError)
        -> PushToStartToken
    {
        PushToStartToken(
            bundleID: try row.string(first, "bundle_id"), token: try row.token(first + 1, "token"),
            environment: try row.value(first + 2, "environment"), user: try row.optionalString(first + 3, "user_id"),
            attributesType: try row.string(first + 4, "attributes_type"),
            registeredAt: try row.int(first + 5, "registered_at"), status: try row.value(first + 6, "status"),
            statusReason: try row.optionalString(first + 7, "status_reason"))
    }

    /// A Live Activity's token from `activityColumns`.
    static func readActivity(_ row: PostgresRowReader) throws(GatewayStoreError) -> ActivityToken {
        ActivityToken(
            bundleID: try row.string(0, "bundle_id"), activityID: try row.string(1, "activity_id"),
            token: try row.token(2, "token"), environment: try row.value(3, "environment"),
            user: try row.optionalString(4, "user_id"), registeredAt: try row.int(5, "registered_at"),
            status: try row.value(6, "status"), statusReason: try row.optionalString(7, "status_reason"))
    }
}
