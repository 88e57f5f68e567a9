import Keys

/// A server connection as its handler sees it: who the client is, per-connection state, and the
/// connection-level controls APNs uses (stream limit, GOAWAY, close).
///
/// Thread-safety: loop-confined, not `Sendable`: use it on ``loop`` only (handler callbacks and
/// timers scheduled on ``loop`` are). Lifecycle: created per accepted connection, handed to
/// ``HTTP2RequestHandler/connectionOpened(_:)``; once the connection has ended every control is a
/// no-op (returning false) and ``isOpen`` reads false. It may outlive its connection.
public final class HTTP2ServerConnectionContext {
    /// Unique per server, counting from 1 in accept order.
    public let id: UInt64
    /// The loop that owns the connection and calls its handler.
    public let loop: EventLoop
    /// The client's address, when the kernel still knew it at accept.
    public let remoteAddress: SocketAddress?
    /// The client's certificate (TLS servers that ask for one: `verifyPeer`), known at open.
    public internal(set) var peerCertificate: Certificate? {
        get { storedPeerCertificate }
        set { storedPeerCertificate = newValue }
    }
    /// Handler-owned per-connection state (authenticated team, token cache, ...); released after
    /// ``HTTP2RequestHandler/connectionClosed(_:)``, so it may refer back to the context.
    public var userData: AnyObject? {
        get { storedUserData }
        set { storedUserData = newValue }
    }
    // SAFETY: `@exclusivity(unchecked)`: like the whole context, touched on `loop` only, and a handler
    // reads both on every request, where the dynamic exclusivity checks cost more than the reads.
    // Behind accessors because a caller in another module checks a public stored property's
    // accesses whatever its declaration says.
    @exclusivity(unchecked) private var storedPeerCertificate: Certificate?
    @exclusivity(unchecked) private var storedUserData: AnyObject?
    /// The live connection, nil once it has ended (the back reference is cleared there, so no cycle).
    /// SAFETY: `@exclusivity(unchecked)` as above: loop-confined, read by every answer.
    @exclusivity(unchecked) var connection: HTTP2ServerConnection?

    init(id: UInt64, loop: EventLoop, remoteAddress: SocketAddress?) {
        self.id = id
        self.loop = loop
        self.remoteAddress = remoteAddress
    }

    /// True until the connection has ended.
    public var isOpen: Bool {
        loop.preconditionInEventLoop()
        return connection != nil
    }

    /// Requests delivered to the handler whose streams are still open (answered or not).
    public var openStreams: Int {
        loop.preconditionInEventLoop()
        return connection?.openStreams ?? 0
    }

    /// Sends SETTINGS_MAX_CONCURRENT_STREAMS (APNs: 1 until the first request is authenticated,
    /// then about 1000). Returns whether the SETTINGS frame was queued (never over HTTP/1.1).
    @discardableResult
    public func setMaxConcurrentStreams(_ count: UInt32) -> Bool {
        loop.preconditionInEventLoop()
        return connection?.setMaxConcurrentStreams(count) ?? false
    }

    /// Graceful GOAWAY: last-stream-id is the highest stream processed (or `lastStreamID`, lower,
    /// to leave later requests unprocessed: the client may resend them elsewhere), so requests up to
    /// it may still be answered; the connection closes once they are. APNs sends
    /// `{"reason":"..."}` as `debugData`. Returns whether the GOAWAY was queued. Over HTTP/1.1: no
    /// more requests are read, and the connection closes after the answers to those already read.
    @discardableResult
    public func goAway(lastStreamID: Int32? = nil, errorCode: HTTP2ErrorCode = .noError, debugData: [UInt8] = [])
        -> Bool
    {
        loop.preconditionInEventLoop()
        return connection?.goAway(lastStreamID: lastStreamID, errorCode: errorCode, debugData: debugData) ?? false
    }

    /// Drops the connection at once: no GOAWAY, unanswered requests are abandoned. Returns whether
    /// the connection was still open. Called from inside a handler callback, the close happens as
    /// soon as that callback returns.
    @discardableResult
    public func close() -> Bool {
        loop.preconditionInEventLoop()
        guard let connection else { return false }
        connection.requestClose()
        return true
    }
}
