import Glibc

extension System {
    /// Creates a non-blocking, close-on-exec socket (`SOCK_NONBLOCK | SOCK_CLOEXEC` are always added).
    public static func socket(domain: Int32, type: Int32, protocol: Int32 = 0) throws(SystemError) -> Int32 {
        let flags = Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        return try callBlocking("socket") { Glibc.socket(domain, type | flags, `protocol`) }
    }

    /// Starts connecting `fd` to `address`; `.wouldBlock` means `EINPROGRESS` (wait for writable,
    /// then read `SO_ERROR`).
    ///
    /// `EINTR` is also reported as in progress: a connect interrupted by a signal goes on
    /// asynchronously, and calling it again would fail with `EALREADY`. `EAGAIN` is an error here:
    /// for TCP it means the connect never started (no free local port), so waiting would be wrong.
    public static func connect(_ fd: Int32, to address: UnsafePointer<sockaddr>, length: socklen_t)
        throws(SystemError) -> SyscallResult<Void>
    {
        if Glibc.connect(fd, address, length) == 0 { return .completed(()) }
        let code = Glibc.errno
        switch code {
        case EINPROGRESS, EINTR: return .wouldBlock
        default: throw failure("connect", code)
        }
    }

    /// Binds `fd` to `address`.
    public static func bind(_ fd: Int32, to address: UnsafePointer<sockaddr>, length: socklen_t)
        throws(SystemError)
    {
        _ = try callBlocking("bind") { Glibc.bind(fd, address, length) }
    }

    /// Marks `fd` as a listening socket with room for `backlog` pending connections.
    public static func listen(_ fd: Int32, backlog: Int32) throws(SystemError) {
        _ = try callBlocking("listen") { Glibc.listen(fd, backlog) }
    }

    /// Accepts a connection as a non-blocking, close-on-exec descriptor (`accept4`); `.wouldBlock`
    /// when none is pending. The peer's address is written to `address` when it is given.
    public static func accept(
        _ fd: Int32, address: UnsafeMutablePointer<sockaddr>?, length: UnsafeMutablePointer<socklen_t>?
    ) throws(SystemError) -> SyscallResult<Int32> {
        guard let accept4 = LinuxSymbols.accept4 else { throw missing("accept4") }
        let flags = Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        return try call("accept4") { accept4(fd, address, length, flags) }
    }

    /// Receives up to `buffer.count` bytes; `.completed(0)` is end of stream.
    public static func recv(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError)
        -> SyscallResult<Int>
    {
        try call("recv") { Glibc.recv(fd, buffer.baseAddress, buffer.count, 0) }
    }

    /// Sends up to `bytes.count` bytes with `MSG_NOSIGNAL` (a closed peer is `EPIPE`, never `SIGPIPE`).
    public static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError)
        -> SyscallResult<Int>
    {
        try call("send") { Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Sets an integer socket option, e.g. `(SOL_SOCKET, SO_REUSEADDR, 1)`.
    public static func setsockopt(_ fd: Int32, level: Int32, option: Int32, value: Int32) throws(SystemError) {
        var value = value
        _ = try callBlocking("setsockopt") {
            Glibc.setsockopt(fd, level, option, &value, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    /// Reads an integer socket option.
    public static func getsockopt(_ fd: Int32, level: Int32, option: Int32) throws(SystemError) -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = try callBlocking("getsockopt") { Glibc.getsockopt(fd, level, option, &value, &length) }
        return value
    }

    /// The pending error of a socket (`SO_ERROR`), which reading also clears; 0 when there is none.
    public static func socketError(_ fd: Int32) throws(SystemError) -> Int32 {
        try getsockopt(fd, level: SOL_SOCKET, option: SO_ERROR)
    }

    /// The address `fd` is bound to (`getsockname`).
    public static func localAddress(_ fd: Int32) throws(SystemError) -> sockaddr_storage {
        try address(of: fd, "getsockname", Glibc.getsockname)
    }

    /// The address of the peer `fd` is connected to (`getpeername`).
    public static func remoteAddress(_ fd: Int32) throws(SystemError) -> sockaddr_storage {
        try address(of: fd, "getpeername", Glibc.getpeername)
    }

    private static func address(
        of fd: Int32, _ function: StaticString,
        _ body: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32
    ) throws(SystemError) -> sockaddr_storage {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body(fd, $0, &length) }
        }
        if result != 0 { throw failure(function, Glibc.errno) }
        return storage
    }
}
