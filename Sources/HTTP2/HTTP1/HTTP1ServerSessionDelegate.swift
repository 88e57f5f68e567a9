/// What an ``HTTP1ServerSession`` reports, on its owner's thread (the event loop), after the parser
/// call that produced it has returned: a delegate may respond or close from here.
public protocol HTTP1ServerSessionDelegate: AnyObject {
    /// A request is complete (or over the body limit, see ``HTTP2Request/exceededBodyLimit``).
    /// Its `streamID` numbers it on the connection as HTTP/2 numbers client streams (1, 3, 5, ...).
    func session(_ session: HTTP1ServerSession, didReceive request: HTTP2Request)
    /// A delivered request's exchange ended (once per delivered request): NO_ERROR once its whole
    /// answer was produced, CANCEL when the session closed first.
    func session(_ session: HTTP1ServerSession, didCloseStream streamID: Int32, errorCode: HTTP2ErrorCode)
}
