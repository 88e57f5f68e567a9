/// A failed PostgreSQL call: what was being done, the server's SQLSTATE and message, and the statement.
///
/// `description` reads like `PostgreSQL run "INSERT INTO devices ...": duplicate key value violates
/// unique constraint "devices_pkey" (SQLSTATE 23505)`.
public struct PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done: `connect`, `prepare`, `run`, `query`, `execute`, `read`, `migrate`, ...
    public let operation: String
    /// The server's five-character SQLSTATE (`23505`, `42601`, ...); nil when the error did not come
    /// from the server (a refused connection, a connection lost mid-call, a value Herald cannot read).
    public let sqlState: String?
    /// The server's primary message, or libpq's, or Herald's.
    public let message: String
    /// The server's detail line (which key was duplicated, ...), when it sent one.
    public let detail: String?
    /// The SQL statement, when there was one.
    public let statement: String?
    /// True when the connection was lost (the server went away, or ended the session): nothing is
    /// known about a statement that was in flight, and the connection must be opened again.
    public let connectionLost: Bool

    public init(
        operation: String, sqlState: String? = nil, message: String, detail: String? = nil, statement: String? = nil,
        connectionLost: Bool = false
    ) {
        self.operation = operation
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.statement = statement
        self.connectionLost = connectionLost
    }

    /// SQLSTATE codes Herald acts on (PostgreSQL's Appendix A, "PostgreSQL Error Codes").
    public enum SQLState {
        public static let uniqueViolation = "23505"
        public static let foreignKeyViolation = "23503"
        public static let checkViolation = "23514"
        public static let syntaxError = "42601"
        public static let undefinedTable = "42P01"
        public static let serializationFailure = "40001"
        public static let deadlockDetected = "40P01"
        /// The session was ended by `pg_terminate_backend` or a server shutdown.
        public static let adminShutdown = "57P01"
    }

    /// The SQLSTATE's class (its first two characters): `23` integrity, `42` syntax or access, ...
    public var sqlStateClass: Substring? { sqlState?.prefix(2) }

    public var description: String {
        var text = "PostgreSQL \(operation)"
        if let statement {
            let line = statement.split(whereSeparator: \.isNewline).map { $0.trimmingPrefix(while: \.isWhitespace) }
                .joined(separator: " ")
            text += " \"\(line.count > 120 ? line.prefix(117) + "..." : Substring(line))\""
        }
        text += ": \(message)"
        if let detail { text += " (\(detail))" }
        if let sqlState { text += " (SQLSTATE \(sqlState))" }
        if connectionLost { text += " (connection lost)" }
        return text
    }
}
