// A route table: (method, path pattern) -> handler, for HTTP APIs over either protocol.
//
//   match(method, path) --strip ?query, split on '/', percent-decode each segment-->
//     no pattern matches                 -> .notFound                      (404)
//     patterns match, none for method    -> .methodNotAllowed(allowed)     (405 + Allow)
//     a segment is not valid encoding    -> .invalidPath(reason)           (400)
//     else the most specific pattern     -> .found(handler, parameters)
//
// Segments are split before decoding, so `%2F` inside a parameter is a '/' in its value, never a
// separator. Paths match exactly: a trailing slash or an empty segment matches no parameter, so
// `/v1/apps/` is not `/v1/apps` (404). HEAD falls back to GET when not routed itself.

/// A table of routes, built with ``add(_:_:_:)`` then used by value (a copy is frozen).
///
/// Thread-safety: a value type; `Sendable` when `Handler` is.
public struct HTTPRouter<Handler> {
    struct Route {
        let method: String
        let pattern: HTTPRoutePattern
        let handler: Handler
    }

    /// Routes by segment count.
    private var routes: [Int: [Route]] = [:]

    public init() {}

    /// Adds a route. Throws for an invalid pattern, or one already routed for `method`.
    public mutating func add(_ method: String, _ pattern: String, _ handler: Handler) throws(HTTPRouteError) {
        let parsed = try HTTPRoutePattern(pattern)
        let method = method.uppercased()
        if routes[parsed.segments.count, default: []].contains(where: {
            $0.method == method && $0.pattern.shape == parsed.shape
        }) {
            throw HTTPRouteError(pattern: pattern, rule: "\(method) is already routed for this pattern")
        }
        routes[parsed.segments.count, default: []].append(Route(method: method, pattern: parsed, handler: handler))
    }

    /// The route for `method` and `path` (a request target: the query, if any, is ignored).
    public func match(method: String, path: String) -> HTTPRouteMatch<Handler> {
        let segments: [String]
        switch Self.decodedSegments(path) {
        case .success(let decoded): segments = decoded
        case .failure(let error): return .invalidPath(error.reason)
        }
        typealias Candidate = (route: Route, parameters: [(String, String)])
        var exact: Candidate?
        var getForHead: Candidate?
        var allowed: Set<String> = []
        for route in routes[segments.count] ?? [] {
            guard let parameters = route.pattern.match(segments) else { continue }
            allowed.insert(route.method)
            if route.method == method {
                if exact.map({ route.pattern.isMoreSpecific(than: $0.route.pattern) }) ?? true {
                    exact = (route, parameters)
                }
            } else if method == "HEAD" && route.method == "GET" {
                if getForHead.map({ route.pattern.isMoreSpecific(than: $0.route.pattern) }) ?? true {
                    getForHead = (route, parameters)
                }
            }
        }
        if let best = exact ?? getForHead {
            return .found(best.route.handler, HTTPRouteParameters(best.parameters))
        }
        guard !allowed.isEmpty else { return .notFound }
        if allowed.contains("GET") { allowed.insert("HEAD") }
        return .methodNotAllowed(allowed: allowed.sorted())
    }

    private struct DecodingError: Error {
        let reason: String
    }

    /// The path's segments (after the leading '/', before any '?'), each percent-decoded as UTF-8.
    private static func decodedSegments(_ target: String) -> Result<[String], DecodingError> {
        let path = target.utf8.split(separator: UInt8(ascii: "?"), maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard path.first == UInt8(ascii: "/") else {
            return .failure(DecodingError(reason: "the path must start with '/'"))
        }
        if path.count == 1 { return .success([]) }
        var segments: [String] = []
        for raw in path.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            guard let segment = percentDecoded(raw) else {
                let text = String(decoding: raw, as: UTF8.self)
                return .failure(DecodingError(reason: "path segment '\(text)' is not valid percent-encoded UTF-8"))
            }
            segments.append(segment)
        }
        return .success(segments)
    }

    /// RFC 3986 2.1: `%XX` is the byte XX; nil for a bad escape or bytes that are not UTF-8.
    static func percentDecoded(_ raw: Substring.UTF8View) -> String? {
        guard raw.contains(UInt8(ascii: "%")) else { return String(raw) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                index = raw.index(after: index)
                continue
            }
            let high = raw.index(after: index)
            guard high < raw.endIndex, raw.index(after: high) < raw.endIndex,
                let upper = hexValue(raw[high]), let lower = hexValue(raw[raw.index(after: high)])
            else { return nil }
            bytes.append(upper << 4 | lower)
            index = raw.index(high, offsetBy: 2)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension HTTPRouter: Sendable where Handler: Sendable {}
extension HTTPRouter.Route: Sendable where Handler: Sendable {}

/// What a route table says about a request.
public enum HTTPRouteMatch<Handler> {
    /// The handler, and the path's parameters (decoded).
    case found(Handler, HTTPRouteParameters)
    /// No pattern matches the path: answer 404.
    case notFound
    /// The path matches, not for this method: answer 405 with `Allow: <allowed joined by ", ">`.
    case methodNotAllowed(allowed: [String])
    /// A path segment is not valid percent-encoded UTF-8: answer 400 with `reason`.
    case invalidPath(String)
}

/// The values of a matched pattern's parameters, by name, percent-decoded.
public struct HTTPRouteParameters: Sendable, Equatable {
    private let values: [String: String]

    init(_ pairs: [(String, String)]) {
        values = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
    }

    /// The value of parameter `name` (nil if the pattern has no such parameter).
    public subscript(name: String) -> String? { values[name] }

    public var count: Int { values.count }
}
