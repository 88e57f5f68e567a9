/// What an ``HTTP2Server`` calls for each connection and request.
///
/// Every method is called on the connection's event loop (`connection.loop`), so one handler serves
/// many loops at once: keep shared state behind a `Mutex`, and per-connection state in
/// ``HTTP2ServerConnectionContext/userData``, which only that loop touches.
///
/// Lifecycle per connection: ``connectionOpened(_:)`` once the transport is ready (h2c: when the
/// connection is accepted; TLS: when the handshake has agreed on h2, so `peerCertificate` is known),
/// then ``handle(_:responder:)`` per request, then ``connectionClosed(_:)`` once. A connection that
/// fails before it is opened (a TLS handshake that fails, a client that never speaks) reaches neither.
///
/// With `HTTP2Server.Configuration.acceptsHTTP1`, HTTP/1.1 requests arrive here too, as
/// ``HTTP2Request``s with HTTP/2's pseudo-header fields, answered through the same ``HTTP2Responder``
/// (see docs/TRANSPORT.md, "HTTP/1.1 on the same port").
public protocol HTTP2RequestHandler: Sendable {
    /// The connection is ready; requests may follow. Set `userData` or `setMaxConcurrentStreams` here.
    func connectionOpened(_ connection: HTTP2ServerConnectionContext)
    /// A request is complete (or over the body limit: ``HTTP2Request/exceededBodyLimit``).
    ///
    /// Answer with `responder`, now or later on the same loop (`connection.loop.schedule(after:)`).
    /// A request never answered keeps its stream, and one of the client's concurrent streams, until
    /// the connection ends.
    func handle(_ request: HTTP2Request, responder: HTTP2Responder)
    /// The connection has ended; its responders are inert from now on. `userData` is cleared after
    /// this returns.
    func connectionClosed(_ connection: HTTP2ServerConnectionContext)
}

extension HTTP2RequestHandler {
    public func connectionOpened(_ connection: HTTP2ServerConnectionContext) {}
    public func connectionClosed(_ connection: HTTP2ServerConnectionContext) {}
}
