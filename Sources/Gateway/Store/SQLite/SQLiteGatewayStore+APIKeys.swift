import Storage

extension SQLiteGatewayStore {
    private static let keyColumns = "id, name, scope, bundle_id, created_at, revoked_at"

    public func insertAPIKey(_ key: APIKey, secretHash: [UInt8]) async throws(GatewayStoreError) {
        try await withDatabase { database in
            do {
                try database.run(
                    """
                    INSERT INTO api_keys (id, name, scope, bundle_id, secret_hash, created_at, revoked_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(key.id), .text(key.name), .text(key.scope.rawValue), SQLiteValue(key.bundleID),
                        .blob(secretHash), .integer(key.createdAt), SQLiteValue(key.revokedAt),
                    ])
            } catch let error as SQLiteError where error.primaryCode == Self.constraintViolation {
                throw GatewayStoreError.invalid(APIKey.existsError(key.id))
            }
        }
    }

    public func insertFirstAPIKey(_ key: APIKey, secretHash: [UInt8]) async throws(GatewayStoreError) -> Bool {
        // One statement: SQLite's write lock makes the check and the insert one step, also across processes.
        try await withDatabase { database in
            try database.run(
                """
                INSERT INTO api_keys (id, name, scope, bundle_id, secret_hash, created_at, revoked_at)
                    SELECT ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM api_keys)
                """,
                [
                    .text(key.id), .text(key.name), .text(key.scope.rawValue), SQLiteValue(key.bundleID),
                    .blob(secretHash), .integer(key.createdAt), SQLiteValue(key.revokedAt),
                ]) > 0
        }
    }

    public func apiKey(secretHash: [UInt8]) async throws(GatewayStoreError) -> APIKey? {
        try await withDatabase { database in
            try Self.keys(where: "secret_hash = ? AND revoked_at IS NULL", [.blob(secretHash)], in: database).first
        }
    }

    public func apiKeys() async throws(GatewayStoreError) -> [APIKey] {
        try await withDatabase { database in try Self.keys(where: "1 = 1 ORDER BY seq", [], in: database) }
    }

    public func revokeAPIKey(id: String, now: Int) async throws(GatewayStoreError) -> Bool {
        try await withDatabase { database in
            try database.run(
                "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", [.integer(now), .text(id)])
                > 0
        }
    }

    private static func keys(where condition: String, _ values: [SQLiteValue], in database: SQLiteDatabase) throws
        -> [APIKey]
    {
        try database.select("SELECT \(keyColumns) FROM api_keys WHERE \(condition)", values, table: "api_keys") {
            row throws(GatewayStoreError) in
            APIKey(
                id: try row.string(0, "id"), name: try row.string(1, "name"), scope: try row.value(2, "scope"),
                bundleID: row.optionalString(3), createdAt: try row.int(4, "created_at"), revokedAt: row.optionalInt(5))
        }
    }
}
