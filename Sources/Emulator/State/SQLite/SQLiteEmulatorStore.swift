import HTTP2
import Storage
import Synchronization

/// The emulator's state in one SQLite file (`herald-data/emulator.sqlite` for `herald emulator`).
///
/// Lifecycle: `init` opens the file, creating it and its schema when new and migrating an older one;
/// the file closes when the store is released. Thread-safety: `Sendable`; the one connection sits in
/// a `Mutex`, so each call runs alone (the log writer holds it for one batch transaction at a time).
public final class SQLiteEmulatorStore: EmulatorStore {
    /// The file name `herald emulator` uses inside its data directory.
    public static let fileName = "emulator.sqlite"

    /// Page size of a new file: the delivery log's batches are blobs of megabytes, which SQLite
    /// writes a page at a time (to the WAL, then again at the checkpoint); 64 KB pages make 16 times
    /// fewer writes than 4 KB ones. A file made with another size keeps it.
    static let pageSize = 65536

    /// Contended by the log writer's loop and the connections' loops (a channel made): annotated for TSan.
    private let database: AnnotatedMutex<SQLiteDatabase>
    /// The file opened.
    public let path: String

    /// Opens (or creates) the store at `path`. Throws when the file cannot be opened or written, is
    /// not a database, or holds a schema newer than this Herald's.
    public init(path: String) throws(SQLiteError) {
        var options = SQLiteDatabase.Options()
        options.pageSize = Self.pageSize
        let database = try SQLiteDatabase(path: path, options: options)
        // SQLite checkpoints the WAL every 1000 pages: 4 MB of 4 KB pages, 64 MB of 64 KB ones. Keep it
        // at 16 MB: each checkpoint reads the WAL back and syncs both files, so fewer, larger
        // checkpoints cost the log writer less, and 16 MB still keeps the WAL small.
        let pageSize = try database.query("PRAGMA page_size") { $0.int(0) ?? 4096 }.first ?? 4096
        try database.execute("PRAGMA wal_autocheckpoint = \(max(1, 16_777_216 / max(512, pageSize)))")
        // Debian builds SQLite with SQLITE_SECURE_DELETE: every page the log's DELETE frees would be
        // read, zeroed and written to the WAL (and again at the checkpoint), doubling what the writer
        // writes. Freed pages keep their old bytes until reused (the next batch reuses them); the
        // emulator's log is test data, not a secret.
        try database.execute("PRAGMA secure_delete = OFF")
        try database.migrate(Self.migrations)
        self.database = AnnotatedMutex(database)
        self.path = path
    }

    /// Runs `body` on the connection, alone; SQLite's errors become `EmulatorStoreError.storage`.
    @discardableResult
    func withDatabase<R: Sendable>(_ body: (SQLiteDatabase) throws -> R) throws(EmulatorStoreError) -> R {
        do {
            return try database.withLock { database in try body(database) }
        } catch let error as EmulatorStoreError {
            throw error
        } catch let error as SQLiteError {
            throw .storage(error)
        } catch {
            throw .storage(SQLiteError(operation: "store", subject: path, code: 0, message: "\(error)"))
        }
    }

    // The delivery log: SQLiteEmulatorStore+Deliveries.swift.

    // MARK: - Unregistered tokens

    public func markUnregistered(_ token: String, at milliseconds: Int) throws(EmulatorStoreError) {
        try withDatabase { database in
            try database.run(
                """
                INSERT INTO unregistered_tokens (token, unregistered_at) VALUES (?, ?)
                    ON CONFLICT (token) DO UPDATE SET unregistered_at = excluded.unregistered_at
                """, [.text(token), .integer(milliseconds)])
        }
    }

    public func unregisteredTokens() throws(EmulatorStoreError) -> [String: Int] {
        try withDatabase { database in
            let rows = try database.query("SELECT token, unregistered_at FROM unregistered_tokens") {
                ($0.string(0) ?? "", $0.int(1) ?? 0)
            }
            return Dictionary(rows, uniquingKeysWith: { _, last in last })
        }
    }
}
