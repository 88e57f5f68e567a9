/// One request on an HTTP/1.1 connection and the bytes of its answer, kept in arrival order so
/// that pipelined requests are answered in the order they came whatever order the handler answers.
///
///   head parsed --> (delivered) --respond--> complete --all produced--> removed
///                               --startStreaming--> streaming --finish--> complete
///                               --reset--> aborted --exchanges before it produced--> session ends
struct HTTP1Exchange {
    enum Answer: Equatable {
        case none
        case streaming
        case complete
        /// No answer will come (a reset, a handler bug): the connection ends here.
        case aborted
    }

    let streamID: Int32
    let isHead: Bool
    /// HTTP/1.0: no chunked framing, and the connection closes after the answer.
    let isHTTP10: Bool
    /// Whether the connection stays open after this exchange.
    var keepAlive: Bool
    var delivered = false
    /// A streaming answer's body goes out in chunks (HTTP/1.1); otherwise until the connection closes.
    var chunked = false
    /// The answer has no body on the wire (HEAD, 204, 304), whatever the handler gives.
    var bodyless = false
    var answer = Answer.none
    /// What the delegate hears when an aborted exchange ends.
    var abortCode = HTTP2ErrorCode.cancel
    /// Bytes of the answer (a 100 Continue first, if any) not yet produced.
    var output: [UInt8] = []
    var produced = 0

    var pendingBytes: Int { output.count - produced }
    var isAnswered: Bool { answer != .none }
}
