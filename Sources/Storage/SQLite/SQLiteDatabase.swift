// One SQLite connection. Opening sets what every Herald database wants: WAL (readers never block
// the writer), foreign keys on, synchronous=NORMAL (durable at checkpoints, no fsync per commit;
// a power loss may lose the last commits but never corrupts), and a busy timeout.
//
// Threading rule: one connection per owner, used by one thread at a time. The connection is opened
// SQLITE_OPEN_NOMUTEX and the class is not Sendable; an owner shared across threads keeps it in a
// `Mutex` (the emulator's store does: its calls are short, and its callers -- event loops answering
// a control request, the log's write-behind thread -- need the answer synchronously, which a
// dedicated database thread would turn into a hop and a wait on every call).
import CSQLite

/// A connection to one SQLite database file.
///
/// Lifecycle: `init` opens (or creates) the file; the connection closes when the value is released
/// (cached statements first). Thread-safety: not `Sendable`; one owner at a time (a `Mutex` around
/// it when threads share it).
public final class SQLiteDatabase {
    /// How a connection is opened.
    public struct Options: Sendable {
        /// How long a statement waits for another connection's lock before failing with SQLITE_BUSY.
        public var busyTimeout: Duration = .seconds(5)
        /// Write-ahead logging (ignored for in-memory databases).
        public var writeAheadLog = true
        /// Open the file read-only.
        public var readOnly = false
        /// Most prepared statements kept for reuse by `run`, `query` and `withStatement`.
        public var statementCacheLimit = 64
        /// Bytes per database page for a new file (a power of two, 512 to 65536); nil keeps SQLite's
        /// 4096. An existing file keeps the size it was made with.
        public var pageSize: Int? = nil

        public init() {}
    }

    let handle: OpaquePointer
    /// The file opened (or `:memory:`).
    public let path: String
    private let options: Options
    private var cache: [String: SQLiteStatement] = [:]
    /// Savepoint depth of `transaction` calls in progress.
    var transactionDepth = 0

    /// Opens `path`, creating it unless `options.readOnly`; `:memory:` opens a private in-memory database.
    /// Throws when the file cannot be opened or written, or is not a database.
    public init(path: String, options: Options = Options()) throws(SQLiteError) {
        var pointer: OpaquePointer?
        let flags =
            (options.readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &pointer, flags, nil)
        guard code == SQLITE_OK, let pointer else {
            let error = SQLiteError("open", path, code: code, handle: pointer)
            sqlite3_close_v2(pointer)
            throw error
        }
        handle = pointer
        self.path = path
        self.options = options
        sqlite3_extended_result_codes(handle, 1)
        let (seconds, attoseconds) = options.busyTimeout.components
        sqlite3_busy_timeout(handle, Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000))
        // SQLite quietly opens a write-protected file read-only; say so now, not at the first write.
        if !options.readOnly, sqlite3_db_readonly(handle, "main") == 1 {
            throw SQLiteError(
                operation: "open", subject: path, code: SQLITE_READONLY, message: "the file is not writable")
        }
        // The first statements read the header: a file that is not a database fails here, and is
        // reported as a failure to open it.
        do {
            if let pageSize = options.pageSize, !options.readOnly {
                try execute("PRAGMA page_size = \(pageSize)")  // before WAL mode writes the first page
            }
            if options.writeAheadLog, !options.readOnly {
                _ = try query("PRAGMA journal_mode = WAL") { $0.string(0) }
                try execute("PRAGMA synchronous = NORMAL")
            } else {
                _ = try query("PRAGMA schema_version") { $0.int(0) }
            }
            try execute("PRAGMA foreign_keys = ON")
        } catch {
            throw SQLiteError(operation: "open", subject: path, code: error.code, message: error.message)
        }
    }

    deinit {
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs `sql`, which may hold several statements and no parameters (schemas, pragmas).
    public func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) }
            sqlite3_free(message)
            var error = SQLiteError("execute", sql, code: code, handle: handle)
            if let text { error = SQLiteError(operation: "execute", subject: sql, code: code, message: text) }
            throw error
        }
    }

    /// Compiles one statement, not cached (the caller owns it).
    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw SQLiteError("prepare", sql, code: code == SQLITE_OK ? SQLITE_MISUSE : code, handle: handle)
        }
        return SQLiteStatement(handle: statement, database: handle, sql: sql)
    }

    /// Runs `body` with the cached statement for `sql` (prepared on first use), reset before and after.
    /// `body` must not use the same SQL again from inside.
    public func withStatement<R>(
        _ sql: String, _ body: (SQLiteStatement) throws(SQLiteError) -> R
    ) throws(SQLiteError) -> R {
        let statement: SQLiteStatement
        if let cached = cache[sql] {
            statement = cached
        } else {
            statement = try prepare(sql)
            if cache.count >= options.statementCacheLimit { cache.removeAll() }
            cache[sql] = statement
        }
        statement.reset()
        defer { statement.reset() }
        return try body(statement)
    }

    /// Runs one statement with `values` bound to its parameters; returns the rows it changed.
    @discardableResult
    public func run(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> Int {
        try withStatement(sql) { statement throws(SQLiteError) in
            try statement.bind(values)
            while try statement.step() {}
            return changes
        }
    }

    /// ``run(_:_:)`` with a large blob as the last parameter, which SQLite reads where it lies
    /// instead of copying it first: the binding lives only while the statement runs, in this call.
    @discardableResult
    public func run(_ sql: String, _ values: [SQLiteValue], blob: [UInt8]) throws(SQLiteError) -> Int {
        try blob.withUnsafeBytes { bytes in
            Result { () throws(SQLiteError) in try run(sql, values, blobInPlace: bytes) }
        }.get()
    }

    /// ``run(_:_:blob:)`` with the blob's bytes where they lie (valid during this call).
    @discardableResult
    public func run(
        _ sql: String, _ values: [SQLiteValue], blobInPlace bytes: UnsafeRawBufferPointer
    ) throws(SQLiteError) -> Int {
        try withStatement(sql) { statement throws(SQLiteError) in
            defer { statement.reset() }  // clears the binding while `bytes` are still valid
            try statement.bind(values, thenInPlace: bytes)
            while try statement.step() {}
            return changes
        }
    }

    /// Runs one query with `values` bound; `row` reads each row's columns.
    public func query<T>(
        _ sql: String, _ values: [SQLiteValue] = [], row: (SQLiteStatement) -> T
    ) throws(SQLiteError) -> [T] {
        try withStatement(sql) { statement throws(SQLiteError) in
            try statement.bind(values)
            var rows: [T] = []
            while try statement.step() { rows.append(row(statement)) }
            return rows
        }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// The rowid of the last successful INSERT.
    public var lastInsertRowID: Int { Int(sqlite3_last_insert_rowid(handle)) }
}
