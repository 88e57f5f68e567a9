// A Swift file's text: byte offsets to line:column, and the identifier tokens the locator searches.
//
// The compiler's parse dump gives ranges to declarations and statements but not to expressions, so a
// call's position is found by looking for its name among the identifier tokens inside the narrowest
// range the dump does give (see SyntaxBuilder). The token scan skips comments and the text of string
// literals (not their interpolations), so a name in a comment or a message is never taken for code.

/// A position in a source file; line and column count from 1, the column in UTF-8 bytes as swiftc's own.
public struct SourceLocation: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    public var description: String { "\(line):\(column)" }
}

/// The bytes of one source file, with its line starts and identifier tokens.
struct SourceText: Sendable {
    let bytes: [UInt8]
    private let lineStarts: [Int]
    /// Identifiers (and `$0`-style names), the punctuation `:` `,` `{` `}` `<` `>` `(` `)` `.`, and `"` where a
    /// string literal opens, in order.
    let tokens: [(offset: Int, text: String)]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(index + 1) }
        lineStarts = starts
        tokens = SourceText.scan(bytes)
    }

    func location(ofOffset offset: Int) -> SourceLocation {
        let clamped = max(0, min(offset, bytes.count))
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= clamped { low = middle } else { high = middle - 1 }
        }
        return SourceLocation(line: low + 1, column: clamped - lineStarts[low] + 1)
    }

    /// The index of the first token at or after `offset`.
    func firstToken(atOrAfter offset: Int) -> Int {
        var low = 0
        var high = tokens.count
        while low < high {
            let middle = (low + high) / 2
            if tokens[middle].offset < offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The offset of the first token spelled `text` in `from...through`, if any.
    func find(_ text: String, from: Int, through: Int) -> Int? {
        var index = firstToken(atOrAfter: from)
        while index < tokens.count, tokens[index].offset <= through {
            if tokens[index].text == text { return tokens[index].offset }
            index += 1
        }
        return nil
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    private static let punctuation: Set<UInt8> = Set(":,{}<>().".utf8)

    private static func scan(_ bytes: [UInt8]) -> [(offset: Int, text: String)] {
        var tokens: [(offset: Int, text: String)] = []
        var index = 0
        // Each entry is the parenthesis depth of an open interpolation `\(`; code resumes there.
        var interpolations: [Int] = []
        var depth = 0
        var stringStack: [(hashes: Int, multiline: Bool)] = []
        func byte(_ i: Int) -> UInt8 { i < bytes.count ? bytes[i] : 0 }
        while index < bytes.count {
            if let string = stringStack.last, interpolations.count < stringStack.count {
                // Inside a string literal's text.
                let b = bytes[index]
                if b == UInt8(ascii: "\\") {
                    var hashes = 0
                    while hashes < string.hashes, byte(index + 1 + hashes) == UInt8(ascii: "#") { hashes += 1 }
                    if hashes == string.hashes, byte(index + 1 + hashes) == UInt8(ascii: "(") {
                        index += 2 + hashes
                        depth += 1
                        interpolations.append(depth)
                        continue
                    }
                    index += 2
                    continue
                }
                if b == UInt8(ascii: "\"") {
                    let quotes = string.multiline ? 3 : 1
                    var closes = true
                    for k in 0..<quotes where byte(index + k) != UInt8(ascii: "\"") { closes = false }
                    for k in 0..<string.hashes where byte(index + quotes + k) != UInt8(ascii: "#") { closes = false }
                    if closes {
                        index += quotes + string.hashes
                        stringStack.removeLast()
                        continue
                    }
                }
                index += 1
                continue
            }
            let b = bytes[index]
            if b == UInt8(ascii: "/"), byte(index + 1) == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                continue
            }
            if b == UInt8(ascii: "/"), byte(index + 1) == UInt8(ascii: "*") {
                var nesting = 1
                index += 2
                while index < bytes.count, nesting > 0 {
                    if bytes[index] == UInt8(ascii: "/"), byte(index + 1) == UInt8(ascii: "*") {
                        nesting += 1
                        index += 2
                    } else if bytes[index] == UInt8(ascii: "*"), byte(index + 1) == UInt8(ascii: "/") {
                        nesting -= 1
                        index += 2
                    } else {
                        index += 1
                    }
                }
                continue
            }
            if b == UInt8(ascii: "#") || b == UInt8(ascii: "\"") {
                var hashes = 0
                while byte(index + hashes) == UInt8(ascii: "#") { hashes += 1 }
                if byte(index + hashes) == UInt8(ascii: "\"") {
                    let multiline =
                        byte(index + hashes + 1) == UInt8(ascii: "\"") && byte(index + hashes + 2) == UInt8(ascii: "\"")
                    tokens.append((index, "\""))
                    index += hashes + (multiline ? 3 : 1)
                    stringStack.append((hashes, multiline))
                    continue
                }
            }
            if b == UInt8(ascii: "(") { depth += 1 }
            if b == UInt8(ascii: ")") {
                if let open = interpolations.last, open == depth {
                    interpolations.removeLast()
                    depth -= 1
                    index += 1
                    continue
                }
                depth -= 1
            }
            if isIdentifierByte(b) || (b == UInt8(ascii: "$") && isIdentifierByte(byte(index + 1))) {
                let start = index
                index += 1
                while index < bytes.count, isIdentifierByte(bytes[index]) { index += 1 }
                tokens.append((start, String(decoding: bytes[start..<index], as: UTF8.self)))
                continue
            }
            if b == UInt8(ascii: "`") {
                let start = index + 1
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "`"), bytes[index] != UInt8(ascii: "\n") {
                    index += 1
                }
                tokens.append((start, String(decoding: bytes[start..<min(index, bytes.count)], as: UTF8.self)))
                index += 1
                continue
            }
            if punctuation.contains(b) { tokens.append((index, String(UnicodeScalar(b)))) }
            index += 1
        }
        return tokens
    }
}
