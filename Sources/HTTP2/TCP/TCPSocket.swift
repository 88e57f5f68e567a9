import Glibc

/// A non-blocking TCP connection: owns its descriptor and closes it once.
///
/// Lifecycle: from ``connect(to:)`` or ``TCPListener/accept()``; ``close()`` (or deinit) closes the
/// descriptor. Deregister it from its event loop before closing. Every call after close throws
/// `EBADF` without touching the (possibly reused) descriptor number.
/// Thread-safety: not thread-safe and not `Sendable`; owned by one event loop (or thread) at a time.
public final class TCPSocket {
    /// The descriptor, or -1 once closed.
    public private(set) var fd: Int32

    /// Takes ownership of a connected (or connecting) non-blocking TCP descriptor.
    public init(adopting fd: Int32) {
        self.fd = fd
    }

    deinit { close() }

    /// Starts connecting to `address`. `connected` is false while the connection is in progress:
    /// wait for the socket to be writable, then call ``finishConnect()``.
    public static func connect(to address: SocketAddress) throws(SystemError) -> (TCPSocket, connected: Bool) {
        let socket = TCPSocket(adopting: try System.socket(domain: address.family, type: Int32(SOCK_STREAM.rawValue)))
        let result = try address.withSockAddr { (pointer, length) throws(SystemError) -> SyscallResult<Void> in
            try System.connect(socket.fd, to: pointer, length: length)
        }
        switch result {
        case .completed: return (socket, true)
        case .wouldBlock: return (socket, false)
        }
    }

    /// Completes a connection that ``connect(to:)`` left in progress, once the socket is writable:
    /// throws the connect's failure (`SO_ERROR`), e.g. `ECONNREFUSED`, as `connect failed`.
    public func finishConnect() throws(SystemError) {
        let code = try System.socketError(try openFD("getsockopt"))
        if code != 0 { throw SystemError(function: "connect", errno: code) }
    }

    /// Reads what is available into `buffer`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> IOResult {
        let fd = try openFD("recv")
        if buffer.isEmpty { return .bytes(0) }
        switch try System.recv(fd, into: buffer) {
        case .completed(0): return .endOfFile
        case .completed(let count): return .bytes(count)
        case .wouldBlock: return .wouldBlock
        }
    }

    /// Writes as much of `bytes` as the send buffer takes (`send` with `MSG_NOSIGNAL`).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) -> WriteResult {
        let fd = try openFD("send")
        if bytes.isEmpty { return .written(0) }
        switch try System.send(fd, bytes) {
        case .completed(let count): return .written(count)
        case .wouldBlock: return .wouldBlock
        }
    }

    /// Sends small writes at once instead of waiting to coalesce them (`TCP_NODELAY`).
    public func setNoDelay() throws(SystemError) {
        try System.setsockopt(try openFD("setsockopt"), level: Int32(IPPROTO_TCP), option: TCP_NODELAY, value: 1)
    }

    /// Closes the descriptor; later calls do nothing. A failing close is ignored: on Linux the
    /// descriptor is released anyway, and nothing useful can be done about it.
    public func close() {
        guard fd >= 0 else { return }
        let closing = fd
        fd = -1
        try? System.close(closing)
    }

    /// True until ``close()``.
    public var isOpen: Bool { fd >= 0 }

    /// The local address of the connection.
    public var localAddress: SocketAddress {
        get throws(SystemError) { try Self.address(try System.localAddress(try openFD("getsockname")), "getsockname") }
    }

    /// The peer's address (throws `ENOTCONN` while not connected).
    public var remoteAddress: SocketAddress {
        get throws(SystemError) { try Self.address(try System.remoteAddress(try openFD("getpeername")), "getpeername") }
    }

    private func openFD(_ function: String) throws(SystemError) -> Int32 {
        guard fd >= 0 else { throw SystemError(function: function, errno: EBADF) }
        return fd
    }

    static func address(_ storage: sockaddr_storage, _ function: String) throws(SystemError) -> SocketAddress {
        guard let address = SocketAddress(storage) else { throw SystemError(function: function, errno: EAFNOSUPPORT) }
        return address
    }
}
