extension HTTP2Server {
    /// Where to listen, how to speak, and the limits of one ``HTTP2Server``; frozen at `start`.
    ///
    /// Thread-safety: a value type; `Sendable`.
    public struct Configuration: Sendable {
        /// The loops that run the listener (the first loop) and the connections (round-robin). The
        /// caller owns them: shut the server down before the loops.
        public var loops: EventLoopGroup
        /// A numeric address ("127.0.0.1", "::", "0.0.0.0") or a name, resolved once at start.
        public var host: String
        /// 0 picks a free port; read it back from ``HTTP2Server/port``.
        public var port: UInt16
        /// TLS (a server context offering ALPN h2, and http/1.1 too with `acceptsHTTP1`); nil for h2c
        /// with prior knowledge (and plain HTTP/1.1 with `acceptsHTTP1`).
        public var tls: TLSContext?
        /// Also serve HTTP/1.1 on the same port, to the same handler: chosen by ALPN under TLS
        /// (`http/1.1`, or none), by the client's first bytes otherwise (anything but HTTP/2's
        /// preface). Off by default: APNs, and so the emulator, speaks HTTP/2 only. HTTP/1.1 gets
        /// the same limits as HTTP/2 (``HTTP1SessionConfiguration/init(_:)``).
        public var acceptsHTTP1 = false
        /// Limits enforced per connection (header list, body size, windows).
        public var session: HTTP2SessionConfiguration
        /// Pending connections the kernel queues before `accept` (`listen` backlog).
        public var backlog: Int32
        /// At most this many connections open at once; beyond it accepting pauses (clients wait in
        /// the backlog) until one closes, or, with ``refusesConnectionsOverLimit``, each new one is
        /// accepted and closed at once. nil: no limit but the process's descriptor limit.
        public var maximumConnections: Int?
        /// At `maximumConnections`, accept each new connection and close it at once (the client
        /// learns now, instead of waiting in the backlog for a slot that idle connections may hold
        /// for long). Counted in ``HTTP2Server/refusedTotal``.
        public var refusesConnectionsOverLimit = false
        /// How long TLS plus the client's HTTP/2 preface (HTTP/1.1: its first request head) may take
        /// before the connection is dropped.
        public var handshakeTimeout: Duration
        /// Connections with no request activity for this long (and no request awaiting an answer)
        /// get GOAWAY and are closed; nil keeps them open.
        public var idleTimeout: Duration?
        /// Connections that have sent no complete request this long after they were accepted (only
        /// the preface, or nothing after the handshake) get GOAWAY, as idle ones do, and are closed;
        /// nil: only `handshakeTimeout` and `idleTimeout` apply.
        public var firstRequestTimeout: Duration?
        /// How long a closing connection may take to write its last bytes (GOAWAY, close_notify) and
        /// see the client's end, before its socket is dropped. Bounds ``HTTP2Server/shutdown()``.
        public var closeTimeout: Duration
        /// GOAWAY debug data when an idle connection is closed (APNs: `{"reason":"IdleTimeout"}`).
        public var idleGoAwayDebugData: [UInt8] = []
        /// GOAWAY debug data when the server shuts down (APNs: `{"reason":"Shutdown"}`).
        public var shutdownGoAwayDebugData: [UInt8] = []
        /// The most bytes a streaming response may hold unsent (the client is not reading, or its
        /// flow-control windows are closed). A write that would go past it is refused and the
        /// stream is reset with ENHANCE_YOUR_CALM, so a slow reader cannot make the server buffer
        /// without bound; the responder's `onClose` hears `.reset(.enhanceYourCalm)`.
        public var streamBufferLimit: Int = 1 << 20

        /// SETTINGS_MAX_CONCURRENT_STREAMS in each connection's first SETTINGS frame: the same value
        /// as `session.maxConcurrentStreams`. Raise it per connection with
        /// ``HTTP2ServerConnectionContext/setMaxConcurrentStreams(_:)``.
        public var initialMaxConcurrentStreams: UInt32 {
            get { session.maxConcurrentStreams }
            set { session.maxConcurrentStreams = newValue }
        }

        public init(
            loops: EventLoopGroup, host: String = "127.0.0.1", port: UInt16 = 0, tls: TLSContext? = nil,
            session: HTTP2SessionConfiguration = HTTP2SessionConfiguration(),
            initialMaxConcurrentStreams: UInt32? = nil, backlog: Int32 = 511, maximumConnections: Int? = nil,
            handshakeTimeout: Duration = .seconds(10), idleTimeout: Duration? = nil,
            closeTimeout: Duration = .seconds(2)
        ) {
            self.loops = loops
            self.host = host
            self.port = port
            self.tls = tls
            self.session = session
            self.backlog = backlog
            self.maximumConnections = maximumConnections
            self.handshakeTimeout = handshakeTimeout
            self.idleTimeout = idleTimeout
            self.closeTimeout = closeTimeout
            if let initialMaxConcurrentStreams { self.initialMaxConcurrentStreams = initialMaxConcurrentStreams }
        }

        /// Checks what can be checked before binding: a server TLS context that offers h2, a
        /// session configuration nghttp2 accepts.
        func validate() throws(HTTP2ConnectionError) {
            if let tls {
                guard tls.configuration.role == .server else {
                    throw .tls(.invalidConfiguration(reason: "the server needs a TLS context built with .server(...)"))
                }
                guard tls.configuration.alpnProtocols.contains("h2") else {
                    throw .tls(.invalidConfiguration(reason: "the server's TLS context must offer ALPN \"h2\""))
                }
                guard !acceptsHTTP1 || tls.configuration.alpnProtocols.contains("http/1.1") else {
                    throw .tls(
                        .invalidConfiguration(
                            reason: "a server that accepts HTTP/1.1 must offer ALPN \"http/1.1\" as well as \"h2\""))
                }
            }
            do {
                _ = try HTTP2ServerSession(configuration: session)
            } catch {
                throw .http2(error)
            }
        }
    }
}
