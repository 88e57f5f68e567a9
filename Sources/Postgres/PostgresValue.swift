/// A statement parameter: its PostgreSQL type and value.
///
/// Parameters go to the server in binary form with their type named, so `$1` is never guessed from
/// text: an `.bigint` compared with an `integer` column is widened by the server, a `.text` where a
/// number is expected is refused with SQLSTATE 42883 (no such operator). Arrays travel as
/// `.textArray` and `.bigintArray`, which `unnest($1)` and `= ANY($1)` take.
public enum PostgresValue: Sendable, Hashable {
    case text(String)
    /// `integer` (int4).
    case int(Int32)
    /// `bigint` (int8).
    case bigint(Int64)
    case bytea([UInt8])
    case bool(Bool)
    /// `text[]`, one dimension (elements are not NULL).
    case textArray([String])
    /// `text[]` whose elements may be NULL (nil), one dimension: a column of optional values for
    /// a multi-row `INSERT ... SELECT FROM unnest(...)`.
    case optionalTextArray([String?])
    /// `bigint[]`, one dimension (for `= ANY($1)` over row ids).
    case bigintArray([Int64])
    /// SQL NULL; its type is inferred by the server from where it is used.
    case null

    /// `.bigint`, or `.null` for nil.
    public init(_ value: Int?) { self = value.map { .bigint(Int64($0)) } ?? .null }
    /// `.text`, or `.null` for nil.
    public init(_ value: String?) { self = value.map(PostgresValue.text) ?? .null }
    /// `.bytea`, or `.null` for nil.
    public init(_ value: [UInt8]?) { self = value.map(PostgresValue.bytea) ?? .null }
    /// `.bool`, or `.null` for nil.
    public init(_ value: Bool?) { self = value.map(PostgresValue.bool) ?? .null }

    /// The type's OID (`pg_type.oid`); 0 lets the server infer it.
    var typeOID: UInt32 {
        switch self {
        case .text: 25
        case .int: 23
        case .bigint: 20
        case .bytea: 17
        case .bool: 16
        case .textArray, .optionalTextArray: 1009
        case .bigintArray: 1016
        case .null: 0
        }
    }

    /// Appends the value's binary wire form (PostgreSQL's `*send` functions: integers big-endian,
    /// bool one byte, text and bytea their bytes) to `buffer`; false for NULL, which has none.
    func appendBinary(to buffer: inout [UInt8]) -> Bool {
        switch self {
        case .text(let string): buffer.append(contentsOf: string.utf8)
        case .int(let value): Self.append(value, to: &buffer)
        case .bigint(let value): withUnsafeBytes(of: value.bigEndian) { buffer.append(contentsOf: $0) }
        case .bytea(let bytes): buffer.append(contentsOf: bytes)
        case .bool(let value): buffer.append(value ? 1 : 0)
        case .textArray(let strings):
            // array_send: dimensions, has-nulls flag, element type; per dimension its length and
            // lower bound; then each element's length and bytes. An empty array has no dimensions.
            let header: [Int32] = strings.isEmpty ? [0, 0, 25] : [1, 0, 25, Int32(clamping: strings.count), 1]
            for field in header { Self.append(field, to: &buffer) }
            for string in strings {
                Self.append(Int32(clamping: string.utf8.count), to: &buffer)
                buffer.append(contentsOf: string.utf8)
            }
        case .optionalTextArray(let strings):
            let hasNulls: Int32 = strings.contains(nil) ? 1 : 0
            let header: [Int32] =
                strings.isEmpty ? [0, 0, 25] : [1, hasNulls, 25, Int32(clamping: strings.count), 1]
            for field in header { Self.append(field, to: &buffer) }
            for string in strings {
                guard let string else {
                    Self.append(-1, to: &buffer)
                    continue
                }
                Self.append(Int32(clamping: string.utf8.count), to: &buffer)
                buffer.append(contentsOf: string.utf8)
            }
        case .bigintArray(let values):
            let header: [Int32] = values.isEmpty ? [0, 0, 20] : [1, 0, 20, Int32(clamping: values.count), 1]
            for field in header { Self.append(field, to: &buffer) }
            for value in values {
                Self.append(8, to: &buffer)
                withUnsafeBytes(of: value.bigEndian) { buffer.append(contentsOf: $0) }
            }
        case .null: return false
        }
        return true
    }

    private static func append(_ value: Int32, to buffer: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { buffer.append(contentsOf: $0) }
    }
}
