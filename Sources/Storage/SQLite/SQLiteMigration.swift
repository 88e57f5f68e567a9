// Schema migrations by `PRAGMA user_version`: migration i (1-based) takes a database from version
// i-1 to i, in its own transaction together with the version bump, so a failed migration leaves
// the database at the version before it. A database newer than the code is refused, not touched.

/// One step of a schema: the SQL that takes the database from the previous version to this one.
public struct SQLiteMigration: Sendable {
    /// What the step does, for errors (`"1: deliveries, tokens, channels"`).
    public let name: String
    /// One or more statements, run with `SQLiteDatabase.execute`.
    public let sql: String
    /// Work SQL cannot express (converting rows to another encoding), run after `sql` in the same
    /// transaction; nil for most steps.
    public let convert: (@Sendable (SQLiteDatabase) throws -> Void)?

    public init(_ name: String, sql: String, then convert: (@Sendable (SQLiteDatabase) throws -> Void)? = nil) {
        self.name = name
        self.sql = sql
        self.convert = convert
    }
}

extension SQLiteDatabase {
    /// The schema version stored in the file (`PRAGMA user_version`); 0 for a new database.
    public var userVersion: Int {
        get throws(SQLiteError) { try query("PRAGMA user_version") { $0.int(0) ?? 0 }.first ?? 0 }
    }

    /// Brings the schema up to `migrations.count`, running the steps it has not run yet, in order.
    /// Returns the version it found. Throws, naming the step, when one fails, and refuses a
    /// database whose version is newer than the steps known.
    @discardableResult
    public func migrate(_ migrations: [SQLiteMigration]) throws(SQLiteError) -> Int {
        let found = try userVersion
        guard found <= migrations.count else {
            throw SQLiteError(
                operation: "migrate", subject: path, code: 0,
                message: "the schema is at version \(found), newer than the \(migrations.count) this Herald knows")
        }
        for (offset, migration) in migrations.enumerated().dropFirst(found) {
            do {
                try transaction {
                    try execute(migration.sql)
                    try migration.convert?(self)
                    try execute("PRAGMA user_version = \(offset + 1)")
                }
            } catch let error as SQLiteError {
                throw SQLiteError(
                    operation: "migrate", subject: "step \(migration.name)", code: error.code,
                    message: error.description)
            } catch {
                throw SQLiteError(operation: "migrate", subject: migration.name, code: 0, message: "\(error)")
            }
        }
        return found
    }
}
