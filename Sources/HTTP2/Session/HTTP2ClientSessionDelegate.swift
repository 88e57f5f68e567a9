/// What a client session reports. Called on the session's owner (its event loop), after the nghttp2
/// call that produced the event has returned: a delegate may submit, receive or close from here.
public protocol HTTP2ClientSessionDelegate: AnyObject {
    /// The response for `token` is complete. Each token is reported exactly once, here or in
    /// `didFail`, when its stream closes.
    func session(_ session: HTTP2ClientSession, didReceive response: HTTP2Response, for token: UInt64)
    /// The stream for `token` closed without a complete response (see ``HTTP2StreamError/isSafeToRetry``).
    func session(_ session: HTTP2ClientSession, didFail error: HTTP2StreamError, for token: UInt64)
    /// A streaming request's final response HEADERS (body empty; chunks follow in `didReceiveData`).
    func session(_ session: HTTP2ClientSession, didReceiveHead response: HTTP2Response, for token: UInt64)
    /// Body bytes of a streaming request's response, in order, as they arrive.
    func session(_ session: HTTP2ClientSession, didReceiveData data: [UInt8], for token: UInt64)
    /// The peer sent GOAWAY: open no more streams here. Streams above `lastStreamID` are reported
    /// refused right after; the others may still complete.
    func session(_ session: HTTP2ClientSession, didReceiveGoAway goAway: HTTP2GoAway)
    /// The peer's SETTINGS arrived or changed (APNs raises MAX_CONCURRENT_STREAMS from 1 after auth).
    func session(_ session: HTTP2ClientSession, didReceiveSettings settings: HTTP2Settings)
    /// A PING this side sent was acknowledged.
    func session(_ session: HTTP2ClientSession, didReceivePingAck payload: UInt64)
}

extension HTTP2ClientSessionDelegate {
    public func session(_ session: HTTP2ClientSession, didReceiveHead response: HTTP2Response, for token: UInt64) {}
    public func session(_ session: HTTP2ClientSession, didReceiveData data: [UInt8], for token: UInt64) {}
    public func session(_ session: HTTP2ClientSession, didReceiveGoAway goAway: HTTP2GoAway) {}
    public func session(_ session: HTTP2ClientSession, didReceiveSettings settings: HTTP2Settings) {}
    public func session(_ session: HTTP2ClientSession, didReceivePingAck payload: UInt64) {}
}
