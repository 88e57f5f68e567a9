import APNs
import Storage

/// Reads typed columns of the current row, naming the table and column when a stored value cannot
/// be read back.
struct SQLiteRowReader {
    let statement: SQLiteStatement
    let table: String

    func int(_ index: Int32, _ column: String) throws(GatewayStoreError) -> Int {
        guard let value = statement.int(index) else { throw corrupt(column, "NULL") }
        return value
    }

    func optionalInt(_ index: Int32) -> Int? { statement.int(index) }

    func string(_ index: Int32, _ column: String) throws(GatewayStoreError) -> String {
        guard let value = statement.string(index) else { throw corrupt(column, "NULL") }
        return value
    }

    func optionalString(_ index: Int32) -> String? { statement.string(index) }

    func bytes(_ index: Int32, _ column: String) throws(GatewayStoreError) -> [UInt8] {
        guard let value = statement.bytes(index) else { throw corrupt(column, "NULL") }
        return value
    }

    func value<T: RawRepresentable<String>>(_ index: Int32, _ column: String, as: T.Type = T.self)
        throws(GatewayStoreError) -> T
    {
        let text = try string(index, column)
        guard let value = T(rawValue: text) else { throw corrupt(column, text) }
        return value
    }

    func token(_ index: Int32, _ column: String) throws(GatewayStoreError) -> DeviceToken {
        let text = try string(index, column)
        do { return try DeviceToken(hex: text) } catch { throw corrupt(column, text) }
    }

    func corrupt(_ column: String, _ value: String) -> GatewayStoreError {
        .corrupt(table: table, column: column, value: value)
    }
}

extension SQLiteDatabase {
    /// Runs a query whose rows `read` decodes, throwing the first row's failure.
    func select<T>(
        _ sql: String, _ values: [SQLiteValue] = [], table: String,
        _ read: (SQLiteRowReader) throws(GatewayStoreError) -> T
    ) throws -> [T] {
        var failure: GatewayStoreError?
        let rows = try query(sql, values) { statement -> T? in
            guard failure == nil else { return nil }
            do throws(GatewayStoreError) {
                return try read(SQLiteRowReader(statement: statement, table: table))
            } catch {
                failure = error
                return nil
            }
        }
        if let failure { throw failure }
        return rows.compactMap { $0 }
    }
}
