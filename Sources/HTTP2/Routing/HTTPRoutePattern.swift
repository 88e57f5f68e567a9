/// A path pattern such as `/v1/apps/{bundle-id}/devices/{token}`: literal segments, and
/// parameters that match one non-empty segment each.
///
/// Rules, checked by ``init(_:)``: the pattern starts with `/`; a parameter is a whole segment
/// `{name}` with a name of letters, digits, `-` and `_`, used once per pattern; literal segments
/// hold no `{`, `}`, `?`, `%`; no empty segments (so no trailing slash, except the root `/`).
public struct HTTPRoutePattern: Sendable, Hashable, CustomStringConvertible {
    enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    let segments: [Segment]
    public let description: String

    public init(_ pattern: String) throws(HTTPRouteError) {
        guard pattern.first == "/" else { throw HTTPRouteError(pattern: pattern, rule: "a pattern starts with '/'") }
        description = pattern
        guard pattern != "/" else {
            segments = []
            return
        }
        var segments: [Segment] = []
        var names: Set<String> = []
        for part in pattern.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard !part.isEmpty else {
                throw HTTPRouteError(pattern: pattern, rule: "segments are not empty (no '//', no trailing '/')")
            }
            if part.first == "{" {
                guard part.last == "}", part.count > 2 else {
                    throw HTTPRouteError(pattern: pattern, rule: "a parameter is a whole segment '{name}'")
                }
                let name = String(part.dropFirst().dropLast())
                guard name.unicodeScalars.allSatisfy({ Self.isNameCharacter($0) }) else {
                    throw HTTPRouteError(
                        pattern: pattern, rule: "parameter names hold letters, digits, '-' and '_' (got '\(name)')")
                }
                guard names.insert(name).inserted else {
                    throw HTTPRouteError(pattern: pattern, rule: "parameter '\(name)' appears twice")
                }
                segments.append(.parameter(name))
            } else {
                guard !part.contains(where: { "{}?%".contains($0) }) else {
                    throw HTTPRouteError(pattern: pattern, rule: "literal segments hold no '{', '}', '?' or '%'")
                }
                segments.append(.literal(String(part)))
            }
        }
        self.segments = segments
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_": return true
        default: return false
        }
    }

    /// The literals in place, parameters as nil: two patterns of one shape match the same paths.
    var shape: [String?] {
        segments.map {
            if case .literal(let literal) = $0 { return literal }
            return nil
        }
    }

    /// The parameters when `path` (decoded segments) matches, else nil.
    func match(_ path: [String]) -> [(String, String)]? {
        guard path.count == segments.count else { return nil }
        var parameters: [(String, String)] = []
        for (segment, part) in zip(segments, path) {
            switch segment {
            case .literal(let literal):
                guard literal == part else { return nil }
            case .parameter(let name):
                guard !part.isEmpty else { return nil }
                parameters.append((name, part))
            }
        }
        return parameters
    }

    /// Whether this pattern is more specific than `other` (same length): at the first segment where
    /// they differ in kind, a literal beats a parameter.
    func isMoreSpecific(than other: HTTPRoutePattern) -> Bool {
        for (mine, theirs) in zip(segments, other.segments) {
            switch (mine, theirs) {
            case (.literal, .parameter): return true
            case (.parameter, .literal): return false
            default: continue
            }
        }
        return false
    }
}

/// A route that cannot be added: the pattern, and the rule it breaks.
public struct HTTPRouteError: Error, Sendable, Equatable, CustomStringConvertible {
    public let pattern: String
    public let rule: String

    public var description: String { "route pattern \"\(pattern)\": \(rule)" }
}
