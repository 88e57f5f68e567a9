/// Something nghttp2 reported during `mem_recv` or `mem_send`, kept until the call has returned.
///
/// Callbacks only record; the public session delivers to its delegate afterwards, so a delegate may
/// call back into the session (submit, receive, close) without re-entering nghttp2.
enum SessionEvent {
    /// Client: the stream closed; its slot says whether the response was complete.
    case clientStreamClosed(slot: Int32)
    /// Server: a request is complete (or over the body limit) and waits for an answer.
    case requestReady(slot: Int32)
    /// Server: a delivered request's stream closed.
    case serverStreamClosed(slot: Int32)
    /// Client, streaming request: the final response HEADERS arrived.
    case responseHead(slot: Int32)
    /// Client, streaming request: body bytes arrived (gathered in the slot until delivered).
    case responseData(slot: Int32)
    case settings(HTTP2Settings)
    case goAway(HTTP2GoAway)
    case pingAck(UInt64)
}
