import CSQLite

/// A failed SQLite call: which operation, on which SQL (or file), and SQLite's own message.
///
/// `description` reads like `SQLite step "INSERT INTO deliveries ...": disk I/O error (code 10)`.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done: `open`, `prepare`, `bind`, `step`, `execute`, `migrate`, ...
    public let operation: String
    /// The SQL statement, or the database file for `open`; nil when neither applies.
    public let subject: String?
    /// SQLite's extended result code (`SQLITE_*`); 0 for errors Herald itself raises.
    public let code: Int32
    /// SQLite's message (`sqlite3_errmsg`), or Herald's.
    public let message: String

    public init(operation: String, subject: String?, code: Int32, message: String) {
        self.operation = operation
        self.subject = subject
        self.code = code
        self.message = message
    }

    /// The error SQLite reports for `handle` after `code`.
    init(_ operation: String, _ subject: String?, code: Int32, handle: OpaquePointer?) {
        let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        self.init(
            operation: operation, subject: subject, code: code,
            message: message ?? String(cString: sqlite3_errstr(code)))
    }

    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT`, ...), without the extended bits.
    public var primaryCode: Int32 { code & 0xff }

    public var description: String {
        var text = "SQLite \(operation)"
        if let subject {
            let line = subject.split(whereSeparator: \.isNewline).map { $0.trimmingPrefix(while: \.isWhitespace) }
                .joined(separator: " ")
            text += " \"\(line.count > 120 ? line.prefix(117) + "..." : Substring(line))\""
        }
        text += ": \(message)"
        if code != 0 { text += " (code \(code))" }
        return text
    }
}
