/// A request received by a server session: its stream, headers (pseudo-headers first) and body.
public struct HTTP2Request: Sendable {
    /// The stream to answer on with ``HTTP2ServerSession/submitResponse(streamID:status:headers:body:)``.
    public let streamID: Int32
    public internal(set) var headers: HTTP2ReceivedHeaders
    /// The body; empty when ``exceededBodyLimit`` is true.
    public internal(set) var body: [UInt8]
    /// The body grew past the session's `maxBodySize`. The request is delivered as soon as that
    /// happens, with an empty body, so the server can answer 413 at once; the rest of the body is
    /// discarded, and once the response has ended the stream is reset with NO_ERROR (RFC 9113 8.1).
    public let exceededBodyLimit: Bool

    public init(streamID: Int32, headers: HTTP2ReceivedHeaders, body: [UInt8], exceededBodyLimit: Bool = false) {
        self.streamID = streamID
        self.headers = headers
        self.body = body
        self.exceededBodyLimit = exceededBodyLimit
    }

    public var method: String? { headers.value(for: ":method") }
    public var path: String? { headers.value(for: ":path") }
    public var authority: String? { headers.value(for: ":authority") }
    public var scheme: String? { headers.value(for: ":scheme") }
}
