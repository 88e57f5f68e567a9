/// A value SQLite stores: its five storage classes.
public enum SQLiteValue: Sendable, Equatable, Hashable {
    case integer(Int)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case null

    /// `.integer`, or `.null` for nil.
    public init(_ value: Int?) { self = value.map(SQLiteValue.integer) ?? .null }
    /// `.real`, or `.null` for nil.
    public init(_ value: Double?) { self = value.map(SQLiteValue.real) ?? .null }
    /// `.text`, or `.null` for nil.
    public init(_ value: String?) { self = value.map(SQLiteValue.text) ?? .null }
    /// `.blob`, or `.null` for nil.
    public init(_ value: [UInt8]?) { self = value.map(SQLiteValue.blob) ?? .null }
}
