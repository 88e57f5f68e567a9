/// What a registered descriptor should be watched for.
///
/// Thread-safety: a value type; `Sendable`.
public struct IOInterest: OptionSet, Hashable, Sendable {
    /// The bits: 1 read, 2 write.
    public let rawValue: UInt8

    /// Creates an interest from its bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Data to read, a pending connection to accept, or end of stream (`EPOLLIN`).
    public static let read = IOInterest(rawValue: 1 << 0)
    /// Room to write, or a non-blocking connect that finished (`EPOLLOUT`).
    public static let write = IOInterest(rawValue: 1 << 1)

    var epollEvents: UInt32 {
        (contains(.read) ? Epoll.input : 0) | (contains(.write) ? Epoll.output : 0)
    }
}

/// Receives readiness events for a descriptor registered with an ``EventLoop``.
///
/// Events are level-triggered: `readable()` comes again on every loop iteration while data or an end
/// of stream is unread, `writable()` while `.write` is in the interest and the socket has room. Level
/// triggering was chosen because a handler may stop early (a read budget for fairness, a full TLS or
/// HTTP/2 buffer) and is simply called again; with edge triggering every stop short of `EAGAIN` would
/// need a re-arm or hang the connection. The cost is that a handler must drop `.write` when it has
/// nothing queued, and must deregister (or close) on `hangup()`, or it is called in a loop.
///
/// For one epoll event the loop calls `readable()` (if readable), then `writable()` (if writable),
/// then `hangup()` (for `EPOLLHUP`/`EPOLLERR`), each only while the descriptor is still registered:
/// data that arrived before a hang-up is read first, and a failed connect reaches `writable()`,
/// where `TCPSocket.finishConnect()` reports its errno. When the loop shuts down it calls `hangup()`
/// once on every handler still registered, then forgets them.
///
/// Thread-safety: every method is called on the loop thread the descriptor is registered with. The
/// loop holds a strong reference to the handler until the descriptor is deregistered.
public protocol IOHandler: AnyObject {
    /// The descriptor has data to read, a connection to accept, or reached end of stream.
    func readable()
    /// The descriptor can be written to, or its non-blocking connect finished (successfully or not).
    func writable()
    /// The descriptor hung up or has an error pending (`EPOLLHUP`/`EPOLLERR`), or the loop is
    /// shutting down. Deregister and close it.
    func hangup()
}
