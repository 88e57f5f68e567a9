/// What a server session reports. Called on the session's owner (its event loop), after the nghttp2
/// call that produced the event has returned: a delegate may respond, receive or close from here.
public protocol HTTP2ServerSessionDelegate: AnyObject {
    /// A request is complete (or over the body limit, see ``HTTP2Request/exceededBodyLimit``).
    /// Answer with `submitResponse` or `submitRstStream`, now or later.
    func session(_ session: HTTP2ServerSession, didReceive request: HTTP2Request)
    /// The stream of a delivered request closed (once per delivered request). `errorCode` is
    /// NO_ERROR after a complete exchange, CANCEL when the session was closed locally.
    func session(_ session: HTTP2ServerSession, didCloseStream streamID: Int32, errorCode: HTTP2ErrorCode)
    func session(_ session: HTTP2ServerSession, didReceiveGoAway goAway: HTTP2GoAway)
    func session(_ session: HTTP2ServerSession, didReceiveSettings settings: HTTP2Settings)
    func session(_ session: HTTP2ServerSession, didReceivePingAck payload: UInt64)
}

extension HTTP2ServerSessionDelegate {
    public func session(_ session: HTTP2ServerSession, didCloseStream streamID: Int32, errorCode: HTTP2ErrorCode) {}
    public func session(_ session: HTTP2ServerSession, didReceiveGoAway goAway: HTTP2GoAway) {}
    public func session(_ session: HTTP2ServerSession, didReceiveSettings settings: HTTP2Settings) {}
    public func session(_ session: HTTP2ServerSession, didReceivePingAck payload: UInt64) {}
}
