import APNs
import Postgres

/// Reads typed columns of a `PostgresRow`, naming the table and column when a stored value cannot
/// be read back (`GatewayStoreError.corrupt`), as `SQLiteRowReader` does.
struct PostgresRowReader {
    let row: PostgresRow
    let table: String

    func int(_ index: Int, _ column: String) throws(GatewayStoreError) -> Int {
        guard let value = try optionalInt(index, column) else { throw corrupt(column, "NULL") }
        return value
    }

    func optionalInt(_ index: Int, _ column: String) throws(GatewayStoreError) -> Int? {
        do { return try row.int(index) } catch { throw corrupt(column, (try? row.string(index)) ?? "?") }
    }

    func string(_ index: Int, _ column: String) throws(GatewayStoreError) -> String {
        guard let value = try optionalString(index, column) else { throw corrupt(column, "NULL") }
        return value
    }

    func optionalString(_ index: Int, _ column: String) throws(GatewayStoreError) -> String? {
        do { return try row.string(index) } catch { throw corrupt(column, "?") }
    }

    func bytes(_ index: Int, _ column: String) throws(GatewayStoreError) -> [UInt8] {
        let value: [UInt8]?
        do { value = try row.bytes(index) } catch { throw corrupt(column, "?") }
        guard let value else { throw corrupt(column, "NULL") }
        return value
    }

    func bool(_ index: Int, _ column: String) throws(GatewayStoreError) -> Bool {
        let value: Bool?
        do { value = try row.bool(index) } catch { throw corrupt(column, (try? row.string(index)) ?? "?") }
        guard let value else { throw corrupt(column, "NULL") }
        return value
    }

    func value<T: RawRepresentable<String>>(_ index: Int, _ column: String, as: T.Type = T.self)
        throws(GatewayStoreError) -> T
    {
        let text = try string(index, column)
        guard let value = T(rawValue: text) else { throw corrupt(column, text) }
        return value
    }

    func token(_ index: Int, _ column: String) throws(GatewayStoreError) -> DeviceToken {
        let text = try string(index, column)
        do { return try DeviceToken(hex: text) } catch { throw corrupt(column, text) }
    }

    func corrupt(_ column: String, _ value: String) -> GatewayStoreError {
        .corrupt(table: table, column: column, value: value)
    }
}

extension PostgresConnection {
    /// Runs a query whose rows `read` decodes.
    func select<T>(
        _ sql: String, _ values: [PostgresValue] = [], table: String,
        _ read: (PostgresRowReader) throws(GatewayStoreError) -> T
    ) throws -> [T] {
        try query(sql, values).map { row throws(GatewayStoreError) in
            try read(PostgresRowReader(row: row, table: table))
        }
    }
}
