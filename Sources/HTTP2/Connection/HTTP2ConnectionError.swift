/// Why a connection could not be opened, or ended.
public enum HTTP2ConnectionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The host name did not resolve.
    case resolve(ResolverError)
    /// A system call failed (connect refused, reset, ...).
    case system(SystemError)
    /// TLS failed: the handshake, certificate verification, or a protocol error.
    case tls(TLSError)
    /// The HTTP/2 session failed (the peer broke the protocol, or nghttp2 refused).
    case http2(HTTP2Error)
    /// The proxy refused the tunnel or did not speak HTTP.
    case proxy(ProxyError)
    /// The peer closed the connection.
    case closedByPeer
    /// The peer sent GOAWAY with an error code (debug data, when APNs sends {"reason":...}).
    case goAway(HTTP2ErrorCode, debug: String)
    /// Nothing within the time allowed: `what` names the stage (connect, TLS handshake, PING).
    case timedOut(String)
    /// This side closed the connection (shutdown).
    case closedLocally

    public var description: String {
        switch self {
        case .resolve(let error): error.description
        case .system(let error): error.description
        case .tls(let error): "TLS: \(error)"
        case .http2(let error): "HTTP/2: \(error)"
        case .proxy(let error): error.description
        case .closedByPeer: "the server closed the connection"
        case .goAway(let code, let debug): "the server sent GOAWAY (\(code))" + (debug.isEmpty ? "" : ": \(debug)")
        case .timedOut(let what): "timed out waiting for \(what)"
        case .closedLocally: "the connection was closed"
        }
    }
}
