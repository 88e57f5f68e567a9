/// A complete response: final status, headers (`:status` included, trailers last) and body.
public struct HTTP2Response: Sendable {
    /// The final (non-1xx) `:status`, parsed from the header bytes.
    public internal(set) var status: Int
    public internal(set) var headers: HTTP2ReceivedHeaders
    public internal(set) var body: [UInt8]

    public init(status: Int, headers: HTTP2ReceivedHeaders, body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
