import Glibc

/// A non-blocking listening TCP socket.
///
/// Sets `SO_REUSEADDR` (restart without waiting out `TIME_WAIT`). IPv6 listeners set `IPV6_V6ONLY`,
/// so "[::]:port" and "0.0.0.0:port" are separate listeners whatever `net.ipv6.bindv6only` says.
/// Lifecycle: ``close()`` (or deinit) closes it; deregister it from its loop first.
/// Thread-safety: not thread-safe and not `Sendable`; owned by one event loop (or thread) at a time.
public final class TCPListener {
    /// The descriptor, or -1 once closed.
    public private(set) var fd: Int32

    /// Binds to `address` (port 0 picks a free port; see ``localAddress``) and listens.
    public init(address: SocketAddress, backlog: Int32 = 511) throws(SystemError) {
        fd = try System.socket(domain: address.family, type: Int32(SOCK_STREAM.rawValue))
        do {
            try System.setsockopt(fd, level: SOL_SOCKET, option: SO_REUSEADDR, value: 1)
            if address.isIPv6 {
                try System.setsockopt(fd, level: Int32(IPPROTO_IPV6), option: IPV6_V6ONLY, value: 1)
            }
            try address.withSockAddr { (pointer, length) throws(SystemError) in
                try System.bind(fd, to: pointer, length: length)
            }
            try System.listen(fd, backlog: backlog)
        } catch {
            close()
            throw error
        }
    }

    /// Binds to a numeric `host` ("127.0.0.1", "::1", "0.0.0.0", "::") and `port`, and listens.
    ///
    /// Throws `EINVAL` (function "bind(host)") if `host` is not a numeric address; resolve names
    /// with ``Resolver`` first.
    public convenience init(host: String, port: UInt16, backlog: Int32 = 511) throws(SystemError) {
        guard let address = SocketAddress(ipAddress: host, port: port) else {
            throw SystemError(function: "bind(\(host))", errno: EINVAL)
        }
        try self.init(address: address, backlog: backlog)
    }

    deinit { close() }

    /// Accepts one pending connection (non-blocking, close-on-exec); nil when none is pending.
    ///
    /// Connections aborted before they were accepted are skipped. Running out of descriptors
    /// (`EMFILE`, `ENFILE`) throws; the connection stays pending, and the loop reports it again.
    public func accept() throws(SystemError) -> TCPSocket? {
        guard fd >= 0 else { throw SystemError(function: "accept4", errno: EBADF) }
        while true {
            do {
                switch try System.accept(fd, address: nil, length: nil) {
                case .completed(let accepted): return TCPSocket(adopting: accepted)
                case .wouldBlock: return nil
                }
            } catch  where error.errno == ECONNABORTED || error.errno == EPROTO {
                continue
            }
        }
    }

    /// The address it listens on, with the actual port when bound to port 0.
    public var localAddress: SocketAddress {
        get throws(SystemError) {
            guard fd >= 0 else { throw SystemError(function: "getsockname", errno: EBADF) }
            return try TCPSocket.address(try System.localAddress(fd), "getsockname")
        }
    }

    /// Closes the descriptor; later calls do nothing.
    public func close() {
        guard fd >= 0 else { return }
        let closing = fd
        fd = -1
        try? System.close(closing)
    }
}
