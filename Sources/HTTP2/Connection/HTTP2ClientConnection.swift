// One client connection on its event loop.
//
//   resolving -> connecting -> [proxying] -> [TLS handshaking] -> awaiting SETTINGS -> ready
//   ready -> draining (GOAWAY received or sent; no new streams) -> closed
//   any state -> closed (error, timeout, EOF, close())
//
// Every request's completion is called exactly once, on the loop: from the session's stream close
// (response or stream error; the request timeout resets the stream and is reported there), or from
// `close`, which closes the session so that it reports every open stream. The owner (the pool)
// learns about readiness, freed streams, draining and the end through `onEvent`.

/// An HTTP/2 client connection (TLS with ALPN h2, or h2c with prior knowledge), optionally through
/// an HTTP CONNECT proxy.
///
/// Thread-safety: loop-confined. Create it, submit to it and close it on its loop only.
public final class HTTP2ClientConnection {
    /// How to reach the server.
    public struct Configuration: Sendable {
        public var host: String
        public var port: Int
        /// nil for h2c (prior knowledge, no TLS).
        public var tls: TLSContext?
        /// SNI and the name the certificate must match; defaults to `host`.
        public var serverName: String?
        public var proxy: ProxyConfiguration?
        public var session: HTTP2SessionConfiguration
        /// TCP connect, proxy, TLS handshake and the server's SETTINGS, in all.
        public var connectTimeout: Duration
        /// PING after this long without a frame from the server; nil never pings.
        public var idlePingInterval: Duration?
        /// Close when a PING is not acknowledged within this.
        public var pingTimeout: Duration

        public init(
            host: String, port: Int, tls: TLSContext?, serverName: String? = nil, proxy: ProxyConfiguration? = nil,
            session: HTTP2SessionConfiguration = HTTP2SessionConfiguration(), connectTimeout: Duration = .seconds(10),
            idlePingInterval: Duration? = .seconds(60), pingTimeout: Duration = .seconds(10)
        ) {
            self.host = host
            self.port = port
            self.tls = tls
            self.serverName = serverName
            self.proxy = proxy
            self.session = session
            self.connectTimeout = connectTimeout
            self.idlePingInterval = idlePingInterval
            self.pingTimeout = pingTimeout
        }
    }

    /// What the owner hears about.
    public enum Event {
        /// Ready for requests (the server's SETTINGS arrived).
        case ready
        /// Streams were freed, or the server raised its stream limit.
        case streamsAvailable
        /// GOAWAY: finish what is open, open nothing new.
        case draining
        /// The connection is gone; every request has been completed.
        case closed(HTTP2ConnectionError)
    }

    enum Phase {
        case resolving
        case connecting(addresses: [SocketAddress], index: Int)
        case proxying(ProxyHandshake)
        case handshaking
        case awaitingSettings
        case ready
        case draining
        case closed(HTTP2ConnectionError)
    }

    public let loop: EventLoop
    public let configuration: Configuration
    /// Called on the loop for every `Event`. (Unchecked exclusivity, as for `phase` below: the
    /// closure is copied out before it is called.)
    @exclusivity(unchecked) public var onEvent: ((HTTP2ClientConnection, Event) -> Void)?
    /// Called on the loop with the outcome of each request submitted with a `context` (see
    /// `submit(headers:extraHeaders:body:deadline:context:)`), exactly once per request.
    @exclusivity(unchecked) public var onCompletion:
        ((HTTP2ClientConnection, UInt64, Result<HTTP2Response, HTTP2RequestFailure>) -> Void)?

    // SAFETY (`@exclusivity(unchecked)` on `phase`, `session`, `flushScheduled`, `unflushedRequests`, `pending`):
    // loop thread only, read for every request and response; each access is a momentary read or
    // write, none held across a call that could re-enter the connection.
    @exclusivity(unchecked) var phase: Phase = .resolving {
        didSet { ready = if case .ready = phase { true } else { false } }
    }
    /// `phase` is `.ready`, kept beside it: read for every request and response (matching the enum,
    /// which has payloads, copied it).
    @exclusivity(unchecked) private var ready = false
    var io: ConnectionIO?
    @exclusivity(unchecked) var session: HTTP2ClientSession?
    @exclusivity(unchecked) var pending = PendingRequests()
    var registered = false
    var writeInterest = false
    var connectTimer: TimerID?
    var pingTimer: TimerID?
    var pingDeadline: TimerID?
    var lastActivity: UInt64 = 0
    @exclusivity(unchecked) var flushScheduled = false
    /// Requests submitted since the last flush; at `earlyFlushRequests` a submit flushes at once.
    @exclusivity(unchecked) var unflushedRequests = 0
    /// Inside `io.readAvailable`: `io` is in use, so a submit (from a completion) only schedules the flush.
    var reading = false
    /// About one TLS record of typical notifications (h2load, the reference, writes in ~16 KB too).
    static let earlyFlushRequests = 32
    /// One timer checks request deadlines for the whole connection (instead of one timer per
    /// request): timeouts fire up to `timeoutGranularity` late.
    @exclusivity(unchecked) var timeoutSweep: TimerID?
    static let timeoutGranularity: UInt64 = 50_000_000
    /// Why the connection is closing, for the requests the session reports afterwards.
    @exclusivity(unchecked) var closeReason: HTTP2ConnectionError?
    /// The last GOAWAY the server sent, if any (APNs says why in its debug data: `{"reason":"IdleTimeout"}`).
    public internal(set) var lastGoAway: HTTP2GoAway?

    init(loop: EventLoop, configuration: Configuration) {
        self.loop = loop
        self.configuration = configuration
    }

    /// Starts connecting; `onEvent` reports `.ready` or `.closed`. Call on `loop`.
    public static func open(
        on loop: EventLoop, configuration: Configuration,
        onEvent: @escaping (HTTP2ClientConnection, Event) -> Void
    ) -> HTTP2ClientConnection {
        loop.preconditionInEventLoop()
        let connection = HTTP2ClientConnection(loop: loop, configuration: configuration)
        connection.onEvent = onEvent
        connection.start()
        return connection
    }

    // MARK: State

    public var isReady: Bool { ready }

    public var isClosed: Bool {
        if case .closed = phase { return true }
        return false
    }

    /// Requests this connection can start now.
    public var availableStreams: Int {
        guard isReady, let session else { return 0 }
        return session.availableStreams
    }

    /// Requests submitted and not yet completed.
    public var openRequests: Int { pending.count }

    /// The server's SETTINGS_MAX_CONCURRENT_STREAMS as last received (0 before its first SETTINGS).
    @exclusivity(unchecked) var streamLimit = 0

    /// Free streams as this side counts them (the server's limit less the requests open), 0 unless
    /// ready: no call into nghttp2, for choosing among connections; `availableStreams` is the
    /// authority before submitting.
    public var freeStreamEstimate: Int {
        guard ready else { return 0 }
        return streamLimit - pending.count
    }
}

/// Why a request got no response.
public struct HTTP2RequestFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The stream ended without a response (refused, reset).
        case stream(HTTP2StreamError)
        /// The connection ended first.
        case connection(HTTP2ConnectionError)
        /// No response within the request's timeout; the stream was reset.
        case timedOut
    }

    public let kind: Kind
    /// false only when the server certainly did not process the request (safe to send again).
    public let mayHaveBeenProcessed: Bool

    public init(kind: Kind, mayHaveBeenProcessed: Bool) {
        self.kind = kind
        self.mayHaveBeenProcessed = mayHaveBeenProcessed
    }

    public var description: String {
        switch kind {
        case .stream(let error): error.description
        case .connection(let error): error.description
        case .timedOut: "no response within the request timeout"
        }
    }
}
