/// Why a stream closed without a complete response, and whether the request is safe to send again.
public struct HTTP2StreamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What happened to the stream; match on this.
    public enum Kind: Sendable, Equatable {
        /// The peer did not process the request: RST_STREAM with REFUSED_STREAM, a stream above the
        /// last-stream-id of a GOAWAY, or a request that could not be sent once GOAWAY arrived.
        case refused
        /// The stream was reset with `code`, by the peer or by nghttp2 for a protocol violation.
        case reset(HTTP2ErrorCode)
        /// The stream was reset locally with ``HTTP2ClientSession/resetStream(_:errorCode:)``.
        case cancelled
        /// The response's header list exceeded `limit` bytes (RFC 7541 sizes); the stream was reset.
        case headerListTooLarge(limit: Int)
        /// The response body exceeded `limit` bytes; the stream was reset.
        case bodyTooLarge(limit: Int)
        /// The session was closed (``HTTP2ClientSession/close()``) before the stream finished.
        case connectionClosed
    }

    public let kind: Kind
    /// The code the stream closed with (`CANCEL` when the session was closed locally).
    public let errorCode: HTTP2ErrorCode
    /// Whether the request's HEADERS left this endpoint.
    public let requestSent: Bool

    public init(kind: Kind, errorCode: HTTP2ErrorCode, requestSent: Bool) {
        self.kind = kind
        self.errorCode = errorCode
        self.requestSent = requestSent
    }

    /// True when the peer cannot have processed the request, so it may be sent again unchanged.
    public var isSafeToRetry: Bool {
        kind == .refused || !requestSent
    }

    public var description: String {
        let retry = isSafeToRetry ? "safe to retry" : "may have been processed"
        switch kind {
        case .refused:
            return "stream refused by the peer (\(retry))"
        case .reset(let code):
            return "stream reset with \(code) (\(retry))"
        case .cancelled:
            return "stream cancelled locally (\(retry))"
        case .headerListTooLarge(let limit):
            return "response header list larger than \(limit) bytes; stream reset (\(retry))"
        case .bodyTooLarge(let limit):
            return "response body larger than \(limit) bytes; stream reset (\(retry))"
        case .connectionClosed:
            return "connection closed before the response (\(retry))"
        }
    }
}
