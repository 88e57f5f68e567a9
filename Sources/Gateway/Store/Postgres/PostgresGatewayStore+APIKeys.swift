import Postgres

extension PostgresGatewayStore {
    private static let keyColumns = "id, name, scope, bundle_id, created_at, revoked_at"

    public func insertAPIKey(_ key: APIKey, secretHash: [UInt8]) async throws(GatewayStoreError) {
        try await withConnection { connection in
            do {
                try connection.run(
                    """
                    INSERT INTO api_keys (id, name, scope, bundle_id, secret_hash, created_at, revoked_at)
                        VALUES ($1, $2, $3, $4, $5, $6, $7)
                    """,
                    [
                        .text(key.id), .text(key.name), .text(key.scope.rawValue), PostgresValue(key.bundleID),
                        .bytea(secretHash), PostgresValue(key.createdAt), PostgresValue(key.revokedAt),
                    ])
            } catch let error as PostgresError where error.sqlState == PostgresError.SQLState.uniqueViolation {
                throw GatewayStoreError.invalid(APIKey.existsError(key.id))
            }
        }
    }

    public func insertFirstAPIKey(_ key: APIKey, secretHash: [UInt8]) async throws(GatewayStoreError) -> Bool {
        // READ COMMITTED lets two transactions both see no key: the advisory lock orders them, so the
        // second sees the first's key.
        try await withConnection { connection in
            try connection.transaction {
                try connection.run("SELECT pg_advisory_xact_lock(hashtext('herald_first_api_key'))")
                return try connection.run(
                    """
                    INSERT INTO api_keys (id, name, scope, bundle_id, secret_hash, created_at, revoked_at)
                        SELECT $1, $2, $3, $4, $5, $6, $7 WHERE NOT EXISTS (SELECT 1 FROM api_keys)
                    """,
                    [
                        .text(key.id), .text(key.name), .text(key.scope.rawValue), PostgresValue(key.bundleID),
                        .bytea(secretHash), PostgresValue(key.createdAt), PostgresValue(key.revokedAt),
                    ]) > 0
            }
        }
    }

    public func apiKey(secretHash: [UInt8]) async throws(GatewayStoreError) -> APIKey? {
        try await withConnection { connection in
            try Self.keys(where: "secret_hash = $1 AND revoked_at IS NULL", [.bytea(secretHash)], in: connection).first
        }
    }

    public func apiKeys() async throws(GatewayStoreError) -> [APIKey] {
        try await withConnection { connection in try Self.keys(where: "true", [], in: connection) }
    }

    public func revokeAPIKey(id: String, now: Int) async throws(GatewayStoreError) -> Bool {
        try await withConnection { connection in
            try connection.run(
                "UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL",
                [PostgresValue(now), .text(id)]) > 0
        }
    }

    /// The keys matching `condition`, in creation order.
    private static func keys(where condition: String, _ values: [PostgresValue], in connection: PostgresConnection)
        throws -> [APIKey]
    {
        try connection.select(
            "SELECT \(keyColumns) FROM api_keys WHERE \(condition) ORDER BY seq", values, table: "api_keys"
        ) { row throws(GatewayStoreError) in
            APIKey(
                id: try row.string(0, "id"), name: try row.string(1, "name"), scope: try row.value(2, "scope"),
                bundleID: try row.optionalString(3, "bundle_id"), createdAt: try row.int(4, "created_at"),
                revokedAt: try row.optionalInt(5, "revoked_at"))
        }
    }
}
