import APNs
import Postgres

/// The gateway's state in a PostgreSQL database, which several gateway processes may share.
///
/// Every call gives the same answers as the SQLite store (the shared suites in Tests/GatewayTests
/// run both). What several processes share safely: the delivery queue (claims by `FOR UPDATE SKIP
/// LOCKED` under a lease), the start of a scheduled notification (one process), an expansion (its
/// chunks take turns on the notification's row) and an idempotency key (one notification).
///
/// Lifecycle: `init` connects, blocking the caller until the server answers, and brings the schema
/// up to date (one process at a time: the migration takes an advisory lock); releasing the store
/// closes the connection. A lost connection fails the call that finds it and is opened again by
/// the next call.
/// Thread-safety: `Sendable`. Every call runs on the store's own thread (`PostgresClient`) while the
/// caller suspends, as the SQLite store's calls do, and resumes on its own executor.
public final class PostgresGatewayStore: GatewayStore {
    /// The table that records the schema's version.
    static let versionTable = "herald_gateway_schema"

    private let client: PostgresClient

    /// The schema version this Herald migrates to.
    public static var schemaVersion: Int { migrations.count }

    /// The connection string the store was opened with (it may hold a password: not for logs).
    public var conninfo: String { client.conninfo }

    /// Connects with a libpq connection string or `postgresql://` URL and migrates the schema.
    /// Throws `GatewayStoreError.database` when the server cannot be reached, refuses the login, or
    /// holds a schema newer than this Herald's.
    public init(conninfo: String) throws(GatewayStoreError) {
        do {
            let connection = try PostgresConnection(conninfo)
            try connection.migrate(Self.migrations, versionTable: Self.versionTable)
            client = try PostgresClient(connection)
        } catch {
            throw .database(error)
        }
    }

    /// Runs `body` with the connection on the store's thread while the caller suspends; PostgreSQL's
    /// errors become `GatewayStoreError.database`, the body's own `GatewayStoreError`s pass through.
    @discardableResult
    func withConnection<R: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> R)
        async throws(GatewayStoreError) -> R
    {
        let outcome: Result<R, GatewayStoreError>
        do {
            outcome = try await client.withConnection { connection throws(PostgresError) in
                do {
                    return .success(try body(connection))
                } catch let error as GatewayStoreError {
                    return .failure(error)
                } catch let error as PostgresError {
                    throw error
                } catch {
                    throw PostgresError(operation: "store", message: "\(error)")
                }
            }
        } catch {
            throw .database(error)
        }
        return try outcome.get()
    }

    /// `withConnection` in one transaction.
    @discardableResult
    func inTransaction<R: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> R)
        async throws(GatewayStoreError) -> R
    {
        try await withConnection { connection in try connection.transaction { try body(connection) } }
    }
}
