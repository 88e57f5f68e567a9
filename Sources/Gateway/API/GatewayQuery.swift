/// The query of a request target (`?environment=sandbox`): names and values percent-decoded.
/// A route says which names it takes (``allow(_:)``); any other is refused, as unknown body fields
/// are, so a misspelt `enviroment` cannot be silently ignored.
struct GatewayQuery: Sendable, Equatable {
    private(set) var values: [String: String] = [:]

    /// Parses the part of `target` after '?'; an error names `query` (bad encoding) or the repeated name.
    init(target: String) throws(GatewayAPIError) {
        guard let mark = target.firstIndex(of: "?") else { return }
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decoded(parts[0]), let value = Self.decoded(parts.count == 2 ? parts[1] : "")
            else {
                throw .badRequest(field: "query", "'\(pair)' is not valid percent-encoded UTF-8")
            }
            guard values[name] == nil else { throw .badRequest(field: name, "appears twice in the query") }
            values[name] = value
        }
    }

    subscript(name: String) -> String? { values[name] }

    /// Refuses any name not in `names`.
    func allow(_ names: [String]) throws(GatewayAPIError) {
        if let unknown = values.keys.sorted().first(where: { !names.contains($0) }) {
            let taken = names.isEmpty ? "this route takes none" : "use \(names.joined(separator: ", "))"
            throw .badRequest(field: unknown, "is not a query parameter here; \(taken)")
        }
    }

    /// RFC 3986 2.1 percent-decoding; nil for a bad escape or bytes that are not UTF-8.
    private static func decoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
