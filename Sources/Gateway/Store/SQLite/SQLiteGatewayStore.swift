import APNs
import HTTP2
import Storage
import Synchronization

/// The gateway's state in one SQLite file (`herald-data/gateway.sqlite` for `herald gateway`).
///
/// Lifecycle: `init` opens the file, creating it and its schema when new and migrating an older one,
/// and starts the store's thread; releasing the store stops the thread and closes the file.
/// Thread-safety: `Sendable`. Every call runs on the store's own thread (an `EventLoop`) while the
/// caller suspends, as it would for PostgreSQL, and resumes on its own executor: SQLite's blocking
/// I/O never holds a thread of the cooperative pool or an event loop. The calls are batches (claims,
/// outcomes, expansion chunks), so the hop is paid per batch, not per row. The connection also sits
/// in a `Mutex`, which the one thread never contends for; it keeps the connection's use checked.
public final class SQLiteGatewayStore: GatewayStore {
    /// The file name `herald gateway` uses inside its data directory.
    public static let fileName = "gateway.sqlite"

    /// SQLITE_CONSTRAINT: a UNIQUE (or CHECK) constraint refused a row.
    static let constraintViolation: Int32 = 19

    private let database: Mutex<SQLiteDatabase>
    /// The thread every call runs on.
    private let thread: EventLoop
    /// The file opened.
    public let path: String

    /// Opens (or creates) the store at `path`. Throws `SQLiteError` when the file cannot be opened or
    /// written, is not a database, or holds a schema newer than this Herald's; `SystemError` when the
    /// store's thread cannot start.
    public init(path: String) throws {
        let database = try SQLiteDatabase(path: path)
        try database.migrate(Self.migrations)
        self.database = Mutex(database)
        self.path = path
        thread = try EventLoop(name: "herald-gateway-db")
    }

    deinit {
        thread.shutdownGracefully()
    }

    /// Runs `body` with the connection on the store's thread while the caller suspends; SQLite's
    /// errors become `GatewayStoreError.storage`. The caller resumes on its own executor: the
    /// store's thread runs store work only (never a caller's code, which would then wait behind
    /// every other caller's transactions).
    @discardableResult
    func withDatabase<R: Sendable>(_ body: @escaping @Sendable (SQLiteDatabase) throws -> R)
        async throws(GatewayStoreError)
        -> R
    {
        let result: Result<R, GatewayStoreError> = await withCheckedContinuation { continuation in
            let accepted = thread.execute {
                continuation.resume(returning: Result { () throws(GatewayStoreError) in try self.locked(body) })
            }
            if !accepted {
                continuation.resume(
                    returning: .failure(
                        .storage(
                            SQLiteError(operation: "store", subject: path, code: 0, message: "the store has shut down"))
                    ))
            }
        }
        return try result.get()
    }

    /// `withDatabase` in one transaction.
    @discardableResult
    func inTransaction<R: Sendable>(_ body: @escaping @Sendable (SQLiteDatabase) throws -> R)
        async throws(GatewayStoreError)
        -> R
    {
        try await withDatabase { database in try database.transaction { try body(database) } }
    }

    private func locked<R: Sendable>(_ body: (SQLiteDatabase) throws -> R) throws(GatewayStoreError) -> R {
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
}
