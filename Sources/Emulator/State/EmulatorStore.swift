// The emulator's durable state, behind protocols with two implementations: `InMemoryEmulatorStore`
// (nothing outlives the process) and `SQLiteEmulatorStore` (a file in the data directory). One test
// suite runs against both (Tests/EmulatorTests/State).
//
// The store is the record, not the hot path: the emulator answers from in-memory state
// (`DeliveryLog`, `TokenRegistry`, `ChannelStore`, `DeviceRegistry`) loaded from the store at start,
// writes the rare changes (an unregistered token, a channel, a simulated device and what waits for
// it) through at once, and writes the delivery log behind, in batches, on its own thread
// (`DeliveryLogWriter`). Times are milliseconds since 1970 throughout.
import Storage

/// Everything the emulator keeps across restarts.
public typealias EmulatorStore = DeliveryLogStore & UnregisteredTokenStore & ChannelRecordStore & DeviceRecordStore

/// Why a store call failed.
public enum EmulatorStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database failed (I/O, a full disk, a locked or corrupt file).
    case storage(SQLiteError)
    /// A stored value cannot be read back (a row changed outside Herald): the table, column and value.
    case corrupt(table: String, column: String, value: String)
    /// No device with this id.
    case unknownDevice(String)
    /// No live channel with this id.
    case unknownChannel(String)
    /// A device with this id exists already.
    case deviceExists(String)
    /// The token belongs to another device (or another activity) already.
    case tokenInUse(String)
    /// The channel id was issued before (ids are never reused).
    case channelIDIssued(String)

    public var description: String {
        switch self {
        case .storage(let error): "\(error)"
        case .corrupt(let table, let column, let value): "\(table).\(column) holds '\(value)', which Herald cannot read"
        case .unknownDevice(let id): "no device '\(id)'"
        case .unknownChannel(let id): "no channel '\(id)'"
        case .deviceExists(let id): "a device '\(id)' exists already"
        case .tokenInUse(let token): "the token \(token) belongs to another device or activity"
        case .channelIDIssued(let id): "the channel id '\(id)' was issued before"
        }
    }
}

/// What the log's writer hands the store in one go.
public struct DeliveryBatch: Sendable, Equatable {
    /// Forget every entry kept before appending (`DELETE /control/v1/deliveries` happened).
    public var clearFirst: Bool
    /// The new entries, oldest first, encoded as the rows the SQLite store writes as they are
    /// (`EncodedDeliveryRow`); `entries` makes `Delivery` values of them.
    var rows: [EncodedDeliveryRow]
    /// Requests answered in all, after these entries (the log's `totalCount`).
    public var total: Int

    /// New entries, oldest first.
    public var entries: [Delivery] {
        get { records.map(\.delivery) }
        set { rows = EncodedDeliveryRow.rows(of: newValue.map(DeliveryRecord.init)) }
    }

    /// The new entries as records, oldest first (decoded from the rows).
    var records: [DeliveryRecord] { rows.flatMap { $0.records() } }

    /// How many new entries.
    var count: Int { rows.reduce(0) { $0 + $1.count } }

    public init(clearFirst: Bool = false, entries: [Delivery], total: Int) {
        self.init(clearFirst: clearFirst, records: entries.map(DeliveryRecord.init), total: total)
    }

    init(clearFirst: Bool, records: [DeliveryRecord], total: Int) {
        self.init(clearFirst: clearFirst, rows: EncodedDeliveryRow.rows(of: records), total: total)
    }

    init(clearFirst: Bool, rows: [EncodedDeliveryRow], total: Int) {
        self.clearFirst = clearFirst
        self.rows = rows
        self.total = total
    }

    public static func == (lhs: DeliveryBatch, rhs: DeliveryBatch) -> Bool {
        lhs.clearFirst == rhs.clearFirst && lhs.total == rhs.total && lhs.entries == rhs.entries
    }
}

/// The delivery log's record: the newest entries, capped, and the total answered.
public protocol DeliveryLogStore: Sendable {
    /// Applies `batch` atomically: forgets the kept entries when `clearFirst`, appends the entries,
    /// records the total, then keeps only the newest `capacity` entries. (A store may leave older
    /// entries in its file, as the SQLite store does with the rest of its oldest row kept, but
    /// never reads them back.)
    func write(_ batch: DeliveryBatch, capacity: Int) throws(EmulatorStoreError)
    /// The newest `limit` entries kept, oldest first, and the total recorded (0 for a new store).
    func loadDeliveries(newest limit: Int) throws(EmulatorStoreError) -> (entries: [Delivery], total: Int)
}

/// Tokens that answer 410 Unregistered.
public protocol UnregisteredTokenStore: Sendable {
    /// Records `token` (lowercase hex) as unregistered since `milliseconds`, replacing an earlier time.
    func markUnregistered(_ token: String, at milliseconds: Int) throws(EmulatorStoreError)
    /// Every unregistered token with the time it became invalid.
    func unregisteredTokens() throws(EmulatorStoreError) -> [String: Int]
}
