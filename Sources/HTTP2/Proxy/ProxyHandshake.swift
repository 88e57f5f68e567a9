// HTTP CONNECT tunnelling (RFC 9110 §9.3.6), sans-I/O: the request to send to the proxy, and a
// parser for its answer. After a 2xx the socket is a byte pipe to the target and TLS starts.
//
//   client -> proxy:  CONNECT host:port HTTP/1.1 / Host: host:port / [Proxy-Authorization] / blank
//   proxy -> client:  HTTP/1.1 200 Connection established / headers / blank line

/// Where the proxy is and how to authenticate to it.
public struct ProxyConfiguration: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    /// `user:password` for Basic auth, never printed.
    public var credentials: String?

    public init(host: String, port: Int, credentials: String? = nil) {
        self.host = host
        self.port = port
        self.credentials = credentials
    }

    /// Parses `http://[user:password@]host[:port]` (the `HTTPS_PROXY` form; port defaults to 80).
    public init(url text: String) throws(ProxyError) {
        var rest = Substring(text)
        if rest.hasPrefix("http://") {
            rest = rest.dropFirst(7)
        } else if rest.contains("://") {
            throw .invalidURL("proxy \(Self.redacted(text)): only http:// proxies are supported")
        }
        while rest.hasSuffix("/") { rest = rest.dropLast() }
        var credentials: String?
        if let at = rest.lastIndex(of: "@") {
            credentials = String(rest[..<at])
            rest = rest[rest.index(after: at)...]
        }
        var host = rest
        var port = 80
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") {
                guard let value = Int(after.dropFirst()), (1...65535).contains(value) else {
                    throw .invalidURL("proxy \(Self.redacted(text)): port must be 1 to 65535")
                }
                port = value
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            guard let value = Int(rest[rest.index(after: colon)...]), (1...65535).contains(value) else {
                throw .invalidURL("proxy \(Self.redacted(text)): port must be 1 to 65535")
            }
            port = value
        }
        guard !host.isEmpty, !host.contains("/") else { throw .invalidURL("proxy \(Self.redacted(text)): no host") }
        self.init(host: String(host), port: port, credentials: credentials)
    }

    public var description: String { "http://\(host.contains(":") ? "[\(host)]" : host):\(port)" }

    /// The URL with any credentials replaced, for messages.
    static func redacted(_ url: String) -> String {
        guard let at = url.lastIndex(of: "@") else { return url }
        let scheme = url.hasPrefix("http://") ? "http://" : ""
        return scheme + "***@" + url[url.index(after: at)...]
    }
}

/// Why a proxy could not be used.
public enum ProxyError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidURL(String)
    /// The proxy answered CONNECT with something other than 2xx.
    case refused(status: Int, reason: String)
    /// The proxy's answer is not HTTP/1.x, or its head is too long.
    case malformedResponse(String)

    public var description: String {
        switch self {
        case .invalidURL(let message): message
        case .refused(let status, let reason): "the proxy refused the tunnel: \(status) \(reason)"
        case .malformedResponse(let message): "the proxy's answer is not HTTP: \(message)"
        }
    }
}

/// The CONNECT exchange for one tunnel.
public struct ProxyHandshake {
    /// The longest response head accepted.
    static let maximumHeadBytes = 16 * 1024

    private var received: [UInt8] = []

    public init() {}

    /// The request that opens a tunnel to `host:port`.
    public static func request(host: String, port: Int, proxy: ProxyConfiguration) -> [UInt8] {
        let authority = (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        var text = "CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\n"
        if let credentials = proxy.credentials {
            text += "Proxy-Authorization: Basic \(base64(Array(credentials.utf8)))\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// Feeds bytes from the proxy. Returns nil while the head is incomplete; once complete, the
    /// bytes after it (already the tunnel's), or throws if the proxy refused.
    public mutating func receive(_ bytes: some Sequence<UInt8>) throws(ProxyError) -> [UInt8]? {
        received.append(contentsOf: bytes)
        guard let end = Self.endOfHead(received) else {
            if received.count > Self.maximumHeadBytes { throw .malformedResponse("no end of head in \(received.count) bytes") }
            return nil
        }
        let head = String(decoding: received[..<end], as: UTF8.self)
        let statusLine = head.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? ""
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw .malformedResponse("status line '\(statusLine.prefix(80))'")
        }
        guard (200..<300).contains(status) else {
            throw .refused(status: status, reason: parts.count > 2 ? String(parts[2]) : "")
        }
        return Array(received[(end + 4)...])
    }

    private static func endOfHead(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    private static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value: UInt32 = 0
            for (offset, byte) in chunk.enumerated() { value |= UInt32(byte) << UInt32(16 - offset * 8) }
            for position in 0..<4 {
                output.append(position <= chunk.count ? alphabet[Int(value >> UInt32(18 - position * 6) & 63)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
