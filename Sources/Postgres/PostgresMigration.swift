// Schema migrations, versioned like SQLite's (`SQLiteMigration`): migration i (1-based) takes the
// schema from version i-1 to i. The steps run in one transaction with the version bump (DDL is
// transactional in PostgreSQL), so a failed migration leaves the schema at the version it had.
// The version lives in a one-row table named by the caller; a schema newer than the code is
// refused, not touched. Several processes starting at once
// take a transaction-scoped advisory lock first: one migrates, the others then find it done.

/// One step of a schema: the SQL that takes it from the previous version to this one.
public struct PostgresMigration: Sendable {
    /// What the step does, for errors (`"1: devices, tokens, api keys"`).
    public let name: String
    /// One or more statements, run with `PostgresConnection.execute`.
    public let sql: String

    public init(_ name: String, sql: String) {
        self.name = name
        self.sql = sql
    }
}

extension PostgresConnection {
    /// Brings the schema recorded in `versionTable` up to `migrations.count`, running the steps not
    /// yet run, in order; returns the version found. Throws, naming the step, when one fails, and
    /// refuses a schema whose version is newer than the steps known.
    @discardableResult
    public func migrate(_ migrations: [PostgresMigration], versionTable: String) throws(PostgresError) -> Int {
        do {
            return try transaction {
                // Any constant would do; this one is the version table's name, hashed by the server.
                try run("SELECT pg_advisory_xact_lock(hashtext($1))", [.text(versionTable)])
                try execute("CREATE TABLE IF NOT EXISTS \(versionTable) (version integer NOT NULL)")
                let found = try query("SELECT max(version) FROM \(versionTable)").first?.int(0) ?? 0
                guard found <= migrations.count else {
                    throw PostgresError(
                        operation: "migrate",
                        message:
                            "the schema is at version \(found), newer than the \(migrations.count) this Herald knows")
                }
                for (offset, migration) in migrations.enumerated().dropFirst(found) {
                    do throws(PostgresError) {
                        try execute(migration.sql)
                    } catch {
                        throw PostgresError(
                            operation: "migrate", sqlState: error.sqlState,
                            message: "step \(migration.name): \(error.message)", detail: error.detail,
                            statement: error.statement)
                    }
                    try execute("DELETE FROM \(versionTable); INSERT INTO \(versionTable) VALUES (\(offset + 1))")
                }
                return found
            }
        } catch let error as PostgresError {
            throw error
        } catch {
            throw PostgresError(operation: "migrate", message: "\(error)")
        }
    }
}
