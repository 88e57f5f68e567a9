/// One row of a query's result, copied out of libpq's result: it outlives the call that made it.
///
/// Values arrive in PostgreSQL's text form and are read by the accessors, which return nil for NULL
/// and throw `PostgresError` (operation `read`, naming the column and the value) when the value does
/// not have the form asked for, so a column changed outside Herald is reported, not guessed at.
public struct PostgresRow: Sendable {
    let columns: PostgresColumns
    let cells: [[UInt8]?]

    /// The number of columns.
    public var count: Int { cells.count }

    /// The column names, in order.
    public var columnNames: [String] { columns.names }

    public func isNull(_ column: Int) -> Bool {
        column < 0 || column >= cells.count || cells[column] == nil
    }

    /// Any value in its text form.
    public func string(_ column: Int) throws(PostgresError) -> String? {
        try cell(column).map { String(decoding: $0, as: UTF8.self) }
    }

    /// An `integer`, `bigint` or `smallint` (or any value whose text is a decimal integer).
    public func int(_ column: Int) throws(PostgresError) -> Int? {
        guard let text = try string(column) else { return nil }
        guard let value = Int(text) else { throw mismatch(column, text, wanted: "an integer") }
        return value
    }

    /// A `boolean` (`t` or `f`).
    public func bool(_ column: Int) throws(PostgresError) -> Bool? {
        switch try string(column) {
        case nil: return nil
        case "t": return true
        case "f": return false
        case let text?: throw mismatch(column, text, wanted: "a boolean")
        }
    }

    /// A `bytea` (sent as `\x` and hex digits); any other type's text as UTF-8 bytes.
    public func bytes(_ column: Int) throws(PostgresError) -> [UInt8]? {
        guard let cell = try cell(column) else { return nil }
        guard columns.types[column] == PostgresColumns.byteaOID else { return cell }
        guard let bytes = Self.decodeHex(cell) else {
            throw mismatch(column, String(decoding: cell.prefix(40), as: UTF8.self), wanted: "bytea in hex form")
        }
        return bytes
    }

    private func cell(_ column: Int) throws(PostgresError) -> [UInt8]? {
        guard column >= 0, column < cells.count else {
            throw PostgresError(operation: "read", message: "no column \(column) (the row has \(cells.count))")
        }
        return cells[column]
    }

    private func mismatch(_ column: Int, _ text: String, wanted: String) -> PostgresError {
        PostgresError(
            operation: "read",
            message: "column \(column) (\(columns.names[column])) holds '\(text.prefix(40))', not \(wanted)")
    }

    /// `\x` followed by an even number of hex digits, as PostgreSQL's `bytea_output = hex` writes.
    static func decodeHex(_ text: [UInt8]) -> [UInt8]? {
        guard text.count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x"), text.count % 2 == 0 else {
            return nil
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((text.count - 2) / 2)
        var index = 2
        while index < text.count {
            guard let high = hexDigit(text[index]), let low = hexDigit(text[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// A result's column names and type OIDs, shared by its rows.
final class PostgresColumns: Sendable {
    static let byteaOID: UInt32 = 17

    let names: [String]
    let types: [UInt32]

    init(names: [String], types: [UInt32]) {
        self.names = names
        self.types = types
    }
}
