import APNs
import Storage
import Synchronization

/// The gateway's state in one SQLite file (`herald-data/gateway.sqlite` for `herald gateway`).
///
/// Lifecycle: `init` opens the file, creating it and its schema when new and migrating an older one;
/// the file closes when the store is released. Thread-safety: `Sendable`; the one connection sits in
/// a `Mutex`, so each call runs alone, on the caller's thread, for one transaction (or one per chunk):
/// the calls are short and bounded, and a dedicated database thread would add a hop to each.
public final class SQLiteGatewayStore: GatewayStore {
    /// The file name `herald gateway` uses inside its data directory.
    public static let fileName = "gateway.sqlite"

    /// SQLITE_CONSTRAINT: a UNIQUE (or CHECK) constraint refused a row.
    static let constraintViolation: Int32 = 19

    private let database: Mutex<SQLiteDatabase>
    /// The file opened.
    public let path: String

    /// Opens (or creates) the store at `path`. Throws when the file cannot be opened or written, is
    /// not a database, or holds a schema newer than this Herald's.
    public init(path: String) throws(SQLiteError) {
        let database = try SQLiteDatabase(path: path)
        try database.migrate(Self.migrations)
        self.database = Mutex(database)
        self.path = path
    }

    /// Runs `body` on the connection, alone; SQLite's errors become `GatewayStoreError.storage`.
    @discardableResult
    func withDatabase<R: Sendable>(_ body: (SQLiteDatabase) throws -> R) throws(GatewayStoreError) -> R {
        do {
            return try database.withLock { database in try body(database) }
        } catch let error as GatewayStoreError {
            throw error
        } catch let error as SQLiteError {
            throw .storage(error)
        } catch {
            throw .storage(SQLiteError(operation: "store", subject: path, code: 0, message: "\(error)"))
        }
    }

    /// `withDatabase` in one transaction.
    @discardableResult
    func inTransaction<R: Sendable>(_ body: (SQLiteDatabase) throws -> R) throws(GatewayStoreError) -> R {
        try withDatabase { database in try database.transaction { try body(database) } }
    }
}
