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

    // MARK: - Delivery log

    static let insertDelivery = """
        INSERT INTO deliveries (received_at, token, topic, push_type, priority, apns_id, unique_id, status, reason,
            payload, channel, fault) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    public func write(_ batch: DeliveryBatch, capacity: Int) throws(EmulatorStoreError) {
        try withDatabase { database in
            try database.transaction {
                if batch.clearFirst { try database.run("DELETE FROM deliveries") }
                try database.withStatement(Self.insertDelivery) { statement throws(SQLiteError) in
                    for delivery in batch.entries.suffix(max(0, capacity)) {
                        statement.reset()
                        try statement.bind(delivery.receivedAt, at: 1)
                        try statement.bind(delivery.token, at: 2)
                        try statement.bind(delivery.topic, at: 3)
                        try statement.bind(delivery.pushType, at: 4)
                        try statement.bind(delivery.priority, at: 5)
                        try statement.bind(delivery.apnsID, at: 6)
                        try statement.bind(delivery.uniqueID, at: 7)
                        try statement.bind(delivery.status, at: 8)
                        try statement.bind(delivery.reason, at: 9)
                        try statement.bind(delivery.payload, at: 10)
                        try statement.bind(delivery.channel, at: 11)
                        try statement.bind(delivery.fault, at: 12)
                        try statement.step()
                    }
                }
                try database.run(
                    "DELETE FROM deliveries WHERE seq <= (SELECT max(seq) FROM deliveries) - ?",
                    [.integer(max(0, capacity))])
                try database.run(
                    """
                    INSERT INTO counters (name, value) VALUES ('deliveries.total', ?)
                        ON CONFLICT (name) DO UPDATE SET value = excluded.value
                    """, [.integer(batch.total)])
            }
        }
    }

    public func loadDeliveries(newest limit: Int) throws(EmulatorStoreError) -> (entries: [Delivery], total: Int) {
        try withDatabase { database in
            let entries = try database.query(
                """
                SELECT received_at, token, topic, push_type, priority, apns_id, unique_id, status, reason, payload,
                    channel, fault
                FROM (SELECT * FROM deliveries ORDER BY seq DESC LIMIT ?) ORDER BY seq
                """, [.integer(max(0, limit))]
            ) { row in
                Delivery(
                    receivedAt: row.int(0) ?? 0, token: row.string(1), topic: row.string(2), pushType: row.string(3),
                    priority: row.int(4), apnsID: row.string(5), uniqueID: row.string(6), status: row.int(7) ?? 0,
                    reason: row.string(8), payload: row.bytes(9) ?? [], channel: row.string(10), fault: row.string(11))
            }
            let total = try database.query("SELECT value FROM counters WHERE name = 'deliveries.total'") {
                $0.int(0) ?? 0
            }
            return (entries, total.first ?? 0)
        }
    }

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
