// One libpq connection, used synchronously: every call sends its statement and waits for the answer.
// `PostgresClient` runs one on its own thread so that callers suspend instead of blocking.
//
// Statements with parameters go through the extended protocol as named prepared statements, cached
// per SQL text and parameter types: the server parses and plans a statement once per connection,
// and parameters travel in binary with their types named (no quoting, no injection). Results come
// back in text form and are copied into `PostgresRow`s before the libpq result is freed, so no C
// pointer leaves this file.
//
// Threading rule: one owner at a time (libpq connections are not thread-safe); the class is not
// `Sendable`. `PostgresClient` keeps one on a dedicated thread.
import CPostgres

/// A connection to a PostgreSQL server.
///
/// Lifecycle: `init` connects (blocking until the server answers or refuses); the connection is
/// closed when the value is released. A connection whose server went away stays broken
/// (`isConnected` false, calls throw with `connectionLost`); open a new one.
/// Thread-safety: not `Sendable`; one owner at a time.
public final class PostgresConnection {
    /// How a connection behaves.
    public struct Options: Sendable {
        /// Most prepared statements kept per connection; past it the cache is emptied (`DEALLOCATE ALL`).
        public var statementCacheLimit = 128

        public init() {}
    }

    let handle: OpaquePointer
    /// libpq's functions (opened by the first connection).
    let pq: LibPQ
    /// The connection string it was opened with (it may hold a password: not for logs).
    public let conninfo: String
    /// How it was opened.
    public let options: Options
    /// Prepared statement names by SQL text and parameter types.
    private var prepared: [PreparedKey: String] = [:]
    private var preparedCount = 0
    /// Savepoint depth of `transaction` calls in progress.
    var transactionDepth = 0

    /// Connects with a libpq connection string: `host=/tmp/pg port=5432 dbname=herald user=herald` or
    /// a URL, `postgresql://user:password@host:port/dbname?sslmode=require`. Throws when the string is
    /// malformed, the server cannot be reached, or it refuses the login.
    public init(_ conninfo: String, options: Options = Options()) throws(PostgresError) {
        let pq = try LibPQ.shared.get()
        guard let handle = pq.connectdb(conninfo) else {
            throw PostgresError(operation: "connect", message: "libpq could not allocate a connection")
        }
        guard pq.status(handle) == CONNECTION_OK else {
            let message = Self.trimmed(pq.errorMessage(handle))
            pq.finish(handle)
            throw PostgresError(operation: "connect", message: message.isEmpty ? "connection refused" : message)
        }
        self.handle = handle
        self.pq = pq
        self.conninfo = conninfo
        self.options = options
        // libpq prints NOTICEs (`relation already exists, skipping`) on stderr by default; they are
        // informational, and a server's log has them.
        _ = pq.setNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit {
        pq.finish(handle)
    }

    /// True while the connection to the server is up (as far as libpq knows: a server that went away
    /// is noticed at the next call).
    public var isConnected: Bool { pq.status(handle) == CONNECTION_OK }

    /// The server's version as a number: 150018 for 15.18.
    public var serverVersion: Int { Int(pq.serverVersion(handle)) }

    /// Runs `sql`, which may hold several statements and no parameters (schemas, `SET`, `LOCK`).
    public func execute(_ sql: String) throws(PostgresError) {
        let result = try check(pq.exec(handle, sql), "execute", sql)
        pq.clear(result)
    }

    /// Runs one statement with `values` bound to `$1`, `$2`, ...; returns the rows it changed (or
    /// returned, for a `SELECT`).
    @discardableResult
    public func run(_ sql: String, _ values: [PostgresValue] = []) throws(PostgresError) -> Int {
        let result = try perform("run", sql, values)
        defer { pq.clear(result) }
        return pq.cmdTuples(result).flatMap { Int(String(cString: $0)) } ?? 0
    }

    /// Runs one query with `values` bound to `$1`, `$2`, ...; returns its rows.
    public func query(_ sql: String, _ values: [PostgresValue] = []) throws(PostgresError) -> [PostgresRow] {
        let result = try perform("query", sql, values)
        defer { pq.clear(result) }
        return rows(of: result)
    }

    /// `query`, then `read` on each row.
    public func query<T>(
        _ sql: String, _ values: [PostgresValue] = [], read: (PostgresRow) throws(PostgresError) -> T
    ) throws(PostgresError) -> [T] {
        var output: [T] = []
        for row in try query(sql, values) { output.append(try read(row)) }
        return output
    }

    /// Runs the cached prepared statement for `sql` and these parameter types (preparing it first).
    private func perform(_ operation: String, _ sql: String, _ values: [PostgresValue]) throws(PostgresError)
        -> OpaquePointer
    {
        let name = try preparedName(sql, values)
        let result = Self.withParameters(values) { count, pointers, lengths, formats in
            pq.execPrepared(handle, name, count, pointers, lengths, formats, 0)
        }
        return try check(result, operation, sql)
    }

    private func preparedName(_ sql: String, _ values: [PostgresValue]) throws(PostgresError) -> String {
        let key = PreparedKey(sql: sql, types: values.map(\.typeOID))
        if let name = prepared[key] { return name }
        if prepared.count >= options.statementCacheLimit {
            try execute("DEALLOCATE ALL")
            prepared.removeAll()
        }
        preparedCount += 1
        let name = "herald_\(preparedCount)"
        let result = key.types.withUnsafeBufferPointer { types in
            pq.prepare(handle, name, sql, Int32(types.count), types.baseAddress)
        }
        pq.clear(try check(result, "prepare", sql))
        prepared[key] = name
        return name
    }

    /// Calls `body` with libpq's parameter arrays: values in binary form (format 1) in one buffer,
    /// NULLs as null pointers. The buffer ends with a spare byte so that an empty value still has an
    /// address (a null pointer would mean NULL).
    private static func withParameters<R>(
        _ values: [PostgresValue],
        _ body: (Int32, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> R
    ) -> R {
        var buffer: [UInt8] = []
        var offsets: [Int?] = []
        var lengths: [Int32] = []
        for value in values {
            let start = buffer.count
            let present = value.appendBinary(to: &buffer)
            offsets.append(present ? start : nil)
            lengths.append(Int32(clamping: buffer.count - start))
        }
        buffer.append(0)
        let formats = [Int32](repeating: 1, count: values.count)
        return buffer.withUnsafeBufferPointer { bytes in
            let base = UnsafeRawPointer(bytes.baseAddress)
            let pointers: [UnsafePointer<CChar>?] = offsets.map { offset in
                offset.flatMap { base?.advanced(by: $0).assumingMemoryBound(to: CChar.self) }
            }
            return body(Int32(values.count), pointers, lengths, formats)
        }
    }

    /// The result if the call succeeded; else the server's (or libpq's) error, the result freed.
    func check(_ result: OpaquePointer?, _ operation: String, _ sql: String) throws(PostgresError) -> OpaquePointer {
        if let result {
            let status = pq.resultStatus(result)
            if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK { return result }
        }
        let error = PostgresError(
            operation: operation,
            sqlState: field(result, "C"),
            message: field(result, "M") ?? result.map { Self.trimmed(pq.resultErrorMessage($0)) }
                ?? Self.trimmed(pq.errorMessage(handle)),
            detail: field(result, "D"),
            statement: sql,
            connectionLost: pq.status(handle) == CONNECTION_BAD)
        pq.clear(result)
        throw error
    }

    /// A field of the server's error report (`C` SQLSTATE, `M` message, `D` detail: the `PG_DIAG_*`
    /// letters, which Swift imports as none of its types).
    private func field(_ result: OpaquePointer?, _ letter: Unicode.Scalar) -> String? {
        guard let result, let text = pq.resultErrorField(result, Int32(letter.value)) else { return nil }
        return String(cString: text)
    }

    private func rows(of result: OpaquePointer) -> [PostgresRow] {
        let rowCount = pq.ntuples(result)
        let columnCount = pq.nfields(result)
        let columns = PostgresColumns(
            names: (0..<columnCount).map { pq.fname(result, $0).map { String(cString: $0) } ?? "?" },
            types: (0..<columnCount).map { pq.ftype(result, $0) })
        var rows: [PostgresRow] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            let cells: [[UInt8]?] = (0..<columnCount).map { column in
                guard pq.getisnull(result, row, column) == 0, let value = pq.getvalue(result, row, column) else {
                    return nil
                }
                let length = Int(pq.getlength(result, row, column))
                return value.withMemoryRebound(to: UInt8.self, capacity: length) {
                    Array(UnsafeBufferPointer(start: $0, count: length))
                }
            }
            rows.append(PostgresRow(columns: columns, cells: cells))
        }
        return rows
    }

    /// libpq's messages end with a newline.
    static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "" }
        var text = String(cString: message)
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}

/// A prepared statement's identity on one connection: its text and parameter types.
private struct PreparedKey: Hashable {
    let sql: String
    let types: [UInt32]
}
