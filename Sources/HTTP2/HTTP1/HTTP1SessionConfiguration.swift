/// The limits an ``HTTP1ServerSession`` enforces on what clients send.
///
/// ``HTTP2Server`` derives them from its HTTP/2 limits (``init(_:)``), so one port has one set of
/// limits whichever protocol a client speaks.
public struct HTTP1SessionConfiguration: Sendable, Equatable {
    /// The request line and header fields together, in bytes; past it the answer is 431 and the
    /// connection closes. http-parser itself stops at 80 KiB whatever this says.
    public var maxHeaderSize: Int = 16_384
    /// The largest body kept per request; a request whose body passes it is delivered early,
    /// flagged (``HTTP2Request/exceededBodyLimit``), and the connection closes after the answer.
    public var maxBodySize: Int = 65_536
    /// Requests read ahead of their answers (pipelining); past it, reading waits for answers.
    public var maxPipelinedRequests: Int = 16
    /// `:scheme` of the requests: "https" behind TLS, "http" otherwise.
    public var scheme: String = "http"

    public init() {}

    public init(maxHeaderSize: Int = 16_384, maxBodySize: Int = 65_536, maxPipelinedRequests: Int = 16) {
        self.maxHeaderSize = maxHeaderSize
        self.maxBodySize = maxBodySize
        self.maxPipelinedRequests = maxPipelinedRequests
    }

    /// The same limits as an HTTP/2 session's: header list size, body size, and as many pipelined
    /// requests as concurrent streams.
    public init(_ http2: HTTP2SessionConfiguration) {
        maxHeaderSize = http2.maxHeaderListSize
        maxBodySize = http2.maxBodySize
        maxPipelinedRequests = Int(max(1, http2.maxConcurrentStreams))
    }
}
