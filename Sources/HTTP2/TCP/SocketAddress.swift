import Glibc

/// An IPv4 or IPv6 address with a port, as used by `connect`, `bind` and `accept`.
///
/// Thread-safety: a value type; `Sendable`.
public struct SocketAddress: Hashable, Sendable, CustomStringConvertible {
    enum IP: Hashable, Sendable {
        /// `s_addr`, in network byte order.
        case v4(UInt32)
        /// The 16 address bytes as two words in memory order, and the zone (interface index).
        case v6(UInt64, UInt64, scopeID: UInt32)
    }

    let ip: IP
    /// The port, in host byte order.
    public let port: UInt16

    /// Parses a numeric IPv4 ("127.0.0.1") or IPv6 ("::1", "[::1]") address; nil if it is not one.
    public init?(ipAddress: String, port: UInt16) {
        var text = Substring(ipAddress)
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        var v4 = in_addr()
        if inet_pton(AF_INET, String(text), &v4) == 1 {
            self.ip = .v4(v4.s_addr)
            self.port = port
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, String(text), &v6) == 1 else { return nil }
        self.ip = Self.ip(v6, scopeID: 0)
        self.port = port
    }

    /// Reads an `AF_INET` or `AF_INET6` address; nil for any other family.
    public init?(_ storage: sockaddr_storage) {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            let address = withUnsafeBytes(of: &storage) { $0.loadUnaligned(as: sockaddr_in.self) }
            ip = .v4(address.sin_addr.s_addr)
            port = UInt16(bigEndian: address.sin_port)
        case AF_INET6:
            let address = withUnsafeBytes(of: &storage) { $0.loadUnaligned(as: sockaddr_in6.self) }
            ip = Self.ip(address.sin6_addr, scopeID: address.sin6_scope_id)
            port = UInt16(bigEndian: address.sin6_port)
        default:
            return nil
        }
    }

    /// The same address with another port.
    public func withPort(_ port: UInt16) -> SocketAddress {
        SocketAddress(ip: ip, port: port)
    }

    init(ip: IP, port: UInt16) {
        self.ip = ip
        self.port = port
    }

    /// `AF_INET` or `AF_INET6`.
    public var family: Int32 { isIPv6 ? AF_INET6 : AF_INET }

    /// True for an IPv6 address.
    public var isIPv6: Bool {
        if case .v6 = ip { return true }
        return false
    }

    /// The address without the port: "127.0.0.1", "::1", "fe80::1%2".
    public var host: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch ip {
        case .v4(let raw):
            var address = in_addr(s_addr: raw)
            _ = inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
            return Self.string(buffer)
        case .v6(_, _, let scopeID):
            var address = in6Address
            _ = inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
            return Self.string(buffer) + (scopeID == 0 ? "" : "%\(scopeID)")
        }
    }

    /// "127.0.0.1:443" or "[::1]:443".
    public var description: String {
        isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The address as a `sockaddr_storage` holding a `sockaddr_in` or `sockaddr_in6`.
    public var storage: sockaddr_storage {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { raw in
            switch ip {
            case .v4(let address):
                var value = sockaddr_in()
                value.sin_family = sa_family_t(AF_INET)
                value.sin_port = port.bigEndian
                value.sin_addr.s_addr = address
                raw.storeBytes(of: value, as: sockaddr_in.self)
            case .v6(_, _, let scopeID):
                var value = sockaddr_in6()
                value.sin6_family = sa_family_t(AF_INET6)
                value.sin6_port = port.bigEndian
                value.sin6_addr = in6Address
                value.sin6_scope_id = scopeID
                raw.storeBytes(of: value, as: sockaddr_in6.self)
            }
        }
        return storage
    }

    /// The length of the `sockaddr` this address becomes.
    public var length: socklen_t {
        socklen_t(isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
    }

    /// Calls `body` with this address as a `sockaddr` pointer and its length.
    public func withSockAddr<Result, Failure: Error>(
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var storage = self.storage
        let length = self.length
        return try withUnsafePointer(to: &storage) { (pointer) throws(Failure) -> Result in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (address) throws(Failure) -> Result in
                try body(address, length)
            }
        }
    }

    private var in6Address: in6_addr {
        guard case .v6(let high, let low, _) = ip else { return in6_addr() }
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { raw in
            raw.storeBytes(of: high, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: low, toByteOffset: 8, as: UInt64.self)
        }
        return address
    }

    private static func ip(_ address: in6_addr, scopeID: UInt32) -> IP {
        var address = address
        return withUnsafeBytes(of: &address) { raw in
            .v6(
                raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self), scopeID: scopeID)
        }
    }

    private static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
