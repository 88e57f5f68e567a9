/// Why a TLS context could not be built or a TLS session failed.
///
/// Messages are one line and never contain key material, passwords or application data.
public enum TLSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The handshake failed for a reason other than certificate verification: an alert from the peer
    /// (`tlsv13 alert certificate required`, `tlsv1 alert unknown ca`), no shared protocol version or cipher,
    /// a missing client certificate, garbage instead of TLS.
    case handshakeFailed(reason: String)
    /// The peer's certificate did not verify; `reason` is OpenSSL's X.509 verdict: `hostname mismatch`,
    /// `self-signed certificate`, `certificate has expired`, `unable to get local issuer certificate`, ...
    case certificateVerificationFailed(reason: String)
    /// The handshake completed without one of the configured ALPN protocols: `got` is what was negotiated.
    case alpnMismatch(got: String?, offered: [String])
    /// The peer broke the protocol after the handshake (a bad record, an unexpected alert).
    case protocolError(reason: String)
    /// The session is closed: `close()` was called, or the peer's close_notify arrived before this write.
    case closed
    /// The configuration cannot be used: a trust file that does not load, a key that does not match its
    /// certificate, an ALPN name that does not fit, a verifying client without a hostname.
    case invalidConfiguration(reason: String)

    public var description: String {
        switch self {
        case .handshakeFailed(let reason):
            "TLS handshake failed: \(oneLine(reason))"
        case .certificateVerificationFailed(let reason):
            "TLS peer certificate verification failed: \(oneLine(reason))"
        case .alpnMismatch(let got, let offered):
            "TLS peer negotiated \(got.map { "ALPN protocol \(String(reflecting: $0))" } ?? "no ALPN protocol")"
                + "; expected one of \(offered.map { String(reflecting: $0) }.joined(separator: ", "))"
        case .protocolError(let reason):
            "TLS protocol error: \(oneLine(reason))"
        case .closed:
            "the TLS session is closed"
        case .invalidConfiguration(let reason):
            "invalid TLS configuration: \(oneLine(reason))"
        }
    }

    private func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
