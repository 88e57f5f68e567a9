/// Where requests go: Apple's production or sandbox servers, or any host (the emulator, a proxy, a test).
public struct APNsEndpoint: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    /// false for h2c with prior knowledge (local tests and the emulator's `--plaintext`).
    public var usesTLS: Bool

    public init(host: String, port: Int = 443, usesTLS: Bool = true) {
        self.host = host
        self.port = port
        self.usesTLS = usesTLS
    }

    /// `api.push.apple.com:443`.
    public static let production = APNsEndpoint(host: "api.push.apple.com")
    /// `api.sandbox.push.apple.com:443`.
    public static let sandbox = APNsEndpoint(host: "api.sandbox.push.apple.com")

    /// Apple's alternative port, for networks that block 443 outbound.
    public func onAlternativePort() -> APNsEndpoint {
        APNsEndpoint(host: host, port: 2197, usesTLS: usesTLS)
    }

    /// Parses `https://host[:port]`, `http://host[:port]` (h2c) or `host[:port]` (TLS); IPv6 hosts in brackets.
    public init(url text: String) throws(APNsClientError) {
        var rest = Substring(text)
        var usesTLS = true
        if rest.hasPrefix("https://") {
            rest = rest.dropFirst(8)
        } else if rest.hasPrefix("http://") {
            rest = rest.dropFirst(7)
            usesTLS = false
        } else if rest.contains("://") {
            throw .invalidConfiguration("endpoint \(text): use https://HOST[:PORT] or http://HOST[:PORT] (h2c)")
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else {
                throw .invalidConfiguration("endpoint \(text): unclosed '[' in an IPv6 address")
            }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty {
                throw .invalidConfiguration("endpoint \(text): expected ':PORT' after ']'")
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty, !host.contains("/") else {
            throw .invalidConfiguration("endpoint \(text): no host; use https://HOST[:PORT]")
        }
        var port = usesTLS ? 443 : 80
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value) else {
                throw .invalidConfiguration("endpoint \(text): port must be 1 to 65535")
            }
            port = value
        }
        self.init(host: String(host), port: port, usesTLS: usesTLS)
    }

    /// The `:authority` value.
    public var authority: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return (usesTLS && port == 443) || (!usesTLS && port == 80) ? name : "\(name):\(port)"
    }

    public var description: String { (usesTLS ? "https://" : "http://") + authority }
}
