/// A JSON number kept as the exact text it was written with, so that re-encoding never changes it.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number as written, a valid JSON number lexeme.
    public let text: String

    /// A number from JSON text; nil unless `text` is a valid JSON number lexeme.
    public init?(text: String) {
        guard JSONNumber.isValidLexeme(Array(text.utf8)) else { return nil }
        self.text = text
    }

    init(uncheckedText text: String) {
        self.text = text
    }

    public init(_ value: Int) {
        self.text = String(value)
    }

    /// A number from a double; nil for infinities and NaN, which JSON cannot represent.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        if value == value.rounded(), abs(value) < 1e15 {
            self.text = String(Int(value))
        } else {
            self.text = "\(value)"
        }
    }

    /// Whether the number is written without fraction or exponent.
    public var isInteger: Bool {
        !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") })
    }

    /// The value as an `Int` when written as an integer that fits; nil otherwise.
    public var intValue: Int? {
        isInteger ? Int(text) : nil
    }

    /// The value as a `Double` (always available for a valid lexeme, possibly rounded or infinite).
    public var doubleValue: Double {
        Double(text) ?? .nan
    }

    public var description: String { text }

    /// Whether `bytes` is exactly one JSON number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    static func isValidLexeme(_ bytes: [UInt8]) -> Bool {
        var index = 0
        return bytes.withUnsafeBufferPointer { buffer in
            JSONParser.scanNumber(buffer, &index) && index == buffer.count
        }
    }
}
