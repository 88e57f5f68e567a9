import CSQLite

/// A prepared statement: bind parameters (1-based, as SQLite counts), step through rows, read
/// columns (0-based), reset for the next use.
///
/// Lifecycle: made by ``SQLiteDatabase/prepare(_:)`` (or cached by the database's `run`/`query`),
/// finalized on deinit. Thread-safety: none; it belongs to its database's owner, like the database.
public final class SQLiteStatement {
    let handle: OpaquePointer
    /// The connection, for error messages.
    let database: OpaquePointer
    /// The SQL text, for error messages.
    public let sql: String

    init(handle: OpaquePointer, database: OpaquePointer, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    // MARK: - Binding

    /// Binds `value` to parameter `index` (1-based); nil binds NULL.
    public func bind(_ value: Int?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try bindNull(at: index) }
        try check("bind", sqlite3_bind_int64(handle, index, Int64(value)))
    }

    /// Binds `value` to parameter `index` (1-based); nil binds NULL.
    public func bind(_ value: Double?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try bindNull(at: index) }
        try check("bind", sqlite3_bind_double(handle, index, value))
    }

    /// Binds `value` as UTF-8 text to parameter `index` (1-based); nil binds NULL. SQLite copies it.
    public func bind(_ value: String?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try bindNull(at: index) }
        // The 64-bit calls: a value past SQLite's limit is SQLITE_TOOBIG, not a trap or a cut.
        let count = UInt64(value.utf8.count)
        let code = value.withCString {
            sqlite3_bind_text64(handle, index, $0, count, herald_sqlite3_transient(), UInt8(SQLITE_UTF8))
        }
        try check("bind", code)
    }

    /// Binds `value` as a blob to parameter `index` (1-based); nil binds NULL. SQLite copies it.
    public func bind(_ value: [UInt8]?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try bindNull(at: index) }
        let code = value.withUnsafeBytes { bytes in
            // An empty array may have no address; a zero-length blob is still a blob, not NULL.
            bytes.baseAddress == nil
                ? sqlite3_bind_zeroblob(handle, index, 0)
                : sqlite3_bind_blob64(handle, index, bytes.baseAddress, UInt64(bytes.count), herald_sqlite3_transient())
        }
        try check("bind", code)
    }

    /// Binds NULL to parameter `index` (1-based).
    public func bindNull(at index: Int32) throws(SQLiteError) {
        try check("bind", sqlite3_bind_null(handle, index))
    }

    /// Binds `value` to parameter `index` (1-based).
    public func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        switch value {
        case .integer(let integer): try bind(integer, at: index)
        case .real(let real): try bind(real, at: index)
        case .text(let text): try bind(text, at: index)
        case .blob(let blob): try bind(blob, at: index)
        case .null: try bindNull(at: index)
        }
    }

    /// Binds `values` to parameters 1, 2, ...; it must be one value per parameter.
    public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard values.count == expected else {
            throw SQLiteError(
                operation: "bind", subject: sql, code: 0,
                message: "\(values.count) values given for \(expected) parameters")
        }
        for (offset, value) in values.enumerated() { try bind(value, at: Int32(offset + 1)) }
    }

    /// Binds `values` to parameters 1, 2, ... and then `bytes`, as a blob SQLite reads in place
    /// (not copied: SQLITE_STATIC) to the last one. `bytes` must stay valid until the statement is
    /// reset, which also clears the binding: run and reset it before they go.
    package func bind(_ values: [SQLiteValue], thenInPlace bytes: UnsafeRawBufferPointer) throws(SQLiteError) {
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard values.count + 1 == expected else {
            throw SQLiteError(
                operation: "bind", subject: sql, code: 0,
                message: "\(values.count + 1) values given for \(expected) parameters")
        }
        for (offset, value) in values.enumerated() { try bind(value, at: Int32(offset + 1)) }
        let index = Int32(expected)
        let code =
            bytes.baseAddress == nil
            ? sqlite3_bind_zeroblob(handle, index, 0)
            : sqlite3_bind_blob64(handle, index, bytes.baseAddress, UInt64(bytes.count), nil)
        try check("bind", code)
    }

    // MARK: - Stepping

    /// Runs the statement to its next row: true when a row is ready to read, false when done.
    @discardableResult
    public func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw SQLiteError("step", sql, code: code, handle: database)
        }
    }

    /// Makes the statement ready to run again and clears its bindings.
    public func reset() {
        // sqlite3_reset repeats the last step's error, which step has already thrown.
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    // MARK: - Columns of the current row

    /// The number of columns in a row.
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// True when column `index` (0-based) is NULL.
    public func isNull(_ index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// Column `index` (0-based) as an integer; nil when NULL.
    public func int(_ index: Int32) -> Int? {
        isNull(index) ? nil : Int(sqlite3_column_int64(handle, index))
    }

    /// Column `index` (0-based) as a double; nil when NULL.
    public func double(_ index: Int32) -> Double? {
        isNull(index) ? nil : sqlite3_column_double(handle, index)
    }

    /// Column `index` (0-based) as UTF-8 text; nil when NULL.
    public func string(_ index: Int32) -> String? {
        guard !isNull(index), let text = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// Column `index` (0-based) as bytes; nil when NULL.
    public func bytes(_ index: Int32) -> [UInt8]? {
        if isNull(index) { return nil }
        let pointer = sqlite3_column_blob(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        guard let pointer, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// Column `index` (0-based) in its own storage class.
    public func value(_ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: .integer(Int(sqlite3_column_int64(handle, index)))
        case SQLITE_FLOAT: .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT: .text(string(index) ?? "")
        case SQLITE_BLOB: .blob(bytes(index) ?? [])
        default: .null
        }
    }

    private func check(_ operation: String, _ code: Int32) throws(SQLiteError) {
        guard code == SQLITE_OK else { throw SQLiteError(operation, sql, code: code, handle: database) }
    }
}
