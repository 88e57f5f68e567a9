/// Why bytes are not valid JSON, and where: byte offset, line and column (both from 1).
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public let offset: Int
    public let line: Int
    public let column: Int

    public init(message: String, offset: Int, line: Int, column: Int) {
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
    }

    public var description: String {
        "invalid JSON at line \(line), column \(column): \(message)"
    }
}
