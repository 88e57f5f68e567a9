/// Why a session call failed: the connection as a whole, or a call the session cannot carry out.
///
/// Failures of one stream are not thrown: they reach the delegate as ``HTTP2StreamError``.
public struct HTTP2Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong; match on this.
    public enum Kind: Sendable, Equatable {
        /// The peer broke the protocol. nghttp2 has queued a GOAWAY with `code`: flush the output, then
        /// close. `reason` is nghttp2's explanation (also sent to the peer as GOAWAY debug data).
        case connectionError(code: HTTP2ErrorCode, reason: String)
        /// An nghttp2 call failed: `function` names it, `code` and `message` are nghttp2's error.
        case library(function: String, code: Int32, message: String)
        /// The session was closed or has failed; it takes no more input and submits nothing.
        case sessionClosed
        /// No new stream may be opened: GOAWAY was sent or received, or stream ids are exhausted.
        case requestNotAllowed
        /// The stream is not open (it never was, or it has closed).
        case streamClosed(streamID: Int32)
        /// A header is not valid HTTP/2: `name` is the offending header, `reason` says why.
        case invalidHeader(name: String, reason: String)
        /// An argument is outside what the call allows; the message says which and what is allowed.
        case invalidArgument(String)
    }

    public let kind: Kind

    public init(_ kind: Kind) {
        self.kind = kind
    }

    public static func library(_ function: String, _ code: Int) -> HTTP2Error {
        let code = Int32(truncatingIfNeeded: code)
        return HTTP2Error(.library(function: function, code: code, message: NGHTTP2.message(code)))
    }

    public var description: String {
        switch kind {
        case .connectionError(let code, let reason):
            return "HTTP/2 connection error \(code): \(reason.isEmpty ? "no reason given" : reason)"
        case .library(let function, let code, let message):
            return "\(function) failed: \(message) (\(code))"
        case .sessionClosed:
            return "the HTTP/2 session is closed"
        case .requestNotAllowed:
            return "no new stream allowed: GOAWAY was sent or received, or stream ids are exhausted"
        case .streamClosed(let streamID):
            return "stream \(streamID) is not open"
        case .invalidHeader(let name, let reason):
            return "invalid header \"\(name)\": \(reason)"
        case .invalidArgument(let message):
            return message
        }
    }
}
