// PostgresClient: one connection on its own thread, an async API for everyone else.
//
//   caller task --withConnection(body)--> suspends; the body joins the client's thread (an EventLoop)
//   client thread: (re)connects if needed -> body(connection) -> resumes the caller's continuation
//   caller task resumes on its own executor with the result
//
// libpq's calls block until the server answers; run on the cooperative pool or an event loop they
// would hold its thread for a network round trip. Here only the client's thread waits, and a call
// costs two thread hops, so callers hand over whole units of work (a transaction, a batch).
// libpq's non-blocking mode (PQsendQuery, PQsocket in the loop's epoll) and pipelining would let
// one thread serve several connections and batches go out without a round trip each; not yet.
import HTTP2
import Synchronization

/// A PostgreSQL connection used from async code: calls suspend while the client's own thread talks
/// to the server.
///
/// Lifecycle: `connect` opens the connection; a connection that is lost is reported to the call
/// that finds it (`PostgresError.connectionLost`) and opened again by the next call. Releasing the
/// client stops its thread and closes the connection.
/// Thread-safety: `Sendable`. Calls from any number of tasks run one at a time, in arrival order,
/// on the client's thread, which runs nothing else (never a caller's code).
public final class PostgresClient: Sendable {
    /// The connection string given (libpq's `key=value` form or a `postgresql://` URL).
    public let conninfo: String
    private let options: PostgresConnection.Options
    // The one thread that touches it; the Mutex is never contended and keeps the use checked.
    private let connection: Mutex<PostgresConnection?>
    private let thread: EventLoop

    /// Connects to the server; throws when it cannot be reached or refuses the login.
    public static func connect(_ conninfo: String, options: PostgresConnection.Options = .init())
        async throws(PostgresError) -> PostgresClient
    {
        let client: PostgresClient
        do {
            client = try PostgresClient(conninfo: conninfo, options: options, connection: nil)
        } catch {
            throw PostgresError(operation: "connect", message: "the client's thread cannot start: \(error)")
        }
        try await client.withConnection { _ throws(PostgresError) in }
        return client
    }

    /// A client that goes on with a connection opened (and perhaps migrated) by synchronous startup
    /// code; a lost connection is opened again with the same connection string and options.
    public convenience init(_ connection: sending PostgresConnection) throws(PostgresError) {
        let conninfo = connection.conninfo
        let options = connection.options
        do {
            try self.init(conninfo: conninfo, options: options, connection: connection)
        } catch {
            throw PostgresError(operation: "connect", message: "the client's thread cannot start: \(error)")
        }
    }

    private init(conninfo: String, options: PostgresConnection.Options, connection: sending PostgresConnection?)
        throws(SystemError)
    {
        self.conninfo = conninfo
        self.options = options
        self.connection = Mutex(connection)
        thread = try EventLoop(name: "herald-postgres")
    }

    deinit {
        thread.shutdownGracefully()
    }

    /// Runs `body` with the connection on the client's thread while the caller suspends, opening
    /// the connection first if it is not open (the first call, or after it was lost).
    public func withConnection<R: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws(PostgresError) -> R
    ) async throws(PostgresError) -> R {
        let result: Result<R, PostgresError> = await withCheckedContinuation { continuation in
            let accepted = thread.execute {
                continuation.resume(returning: Result { () throws(PostgresError) in try self.run(body) })
            }
            if !accepted {
                continuation.resume(
                    returning: .failure(PostgresError(operation: "client", message: "the client has shut down")))
            }
        }
        return try result.get()
    }

    /// `withConnection` in one transaction (see `PostgresConnection.transaction`).
    public func transaction<R: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws(PostgresError) -> R
    ) async throws(PostgresError) -> R {
        try await withConnection { connection throws(PostgresError) in
            do {
                return try connection.transaction { try body(connection) }
            } catch let error as PostgresError {
                throw error
            } catch {
                throw PostgresError(operation: "transaction", message: "\(error)")
            }
        }
    }

    /// Runs one statement; returns the rows it changed.
    @discardableResult
    public func run(_ sql: String, _ values: [PostgresValue] = []) async throws(PostgresError) -> Int {
        try await withConnection { connection throws(PostgresError) in try connection.run(sql, values) }
    }

    /// Runs one query; returns its rows.
    public func query(_ sql: String, _ values: [PostgresValue] = []) async throws(PostgresError) -> [PostgresRow] {
        try await withConnection { connection throws(PostgresError) in try connection.query(sql, values) }
    }

    private func run<R: Sendable>(_ body: (PostgresConnection) throws(PostgresError) -> R) throws(PostgresError) -> R {
        try connection.withLock { connection throws(PostgresError) in
            if connection?.isConnected != true {
                connection = nil  // closes a lost one before opening its successor
                connection = try PostgresConnection(conninfo, options: options)
            }
            guard let open = connection else {
                throw PostgresError(operation: "connect", message: "no connection")
            }
            return try body(open)
        }
    }
}
