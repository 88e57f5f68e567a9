import APNs

/// Why a send did not succeed: APNs said no (`rejected`), the request never got an answer
/// (`transport`), or it was never sent (`invalidNotification`, `invalidConfiguration`, ...).
public enum APNsClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// APNs answered with an error status and reason.
    case rejected(APNsRejection)
    /// No response: `mayHaveReachedAPNs` says whether resending could deliver a duplicate.
    case transport(TransportFailure)
    /// No response within the request timeout (the request may have reached APNs).
    case timedOut(afterSeconds: Double)
    /// The notification breaks a rule APNs would reject it for; it was not sent.
    case invalidNotification(String)
    /// The client's own configuration is wrong (endpoint, credentials, limits).
    case invalidConfiguration(String)
    /// The provider token could not be signed.
    case providerToken(ProviderTokenError)
    /// The client was shut down before the request completed.
    case shutDown

    public var description: String {
        switch self {
        case .rejected(let rejection): rejection.description
        case .transport(let failure): failure.description
        case .timedOut(let seconds):
            "no response from APNs within \(seconds) s (the notification may have been delivered)"
        case .invalidNotification(let message): "not sent: \(message)"
        case .invalidConfiguration(let message): message
        case .providerToken(let error): error.description
        case .shutDown: "the client was shut down before the request completed"
        }
    }

    /// The APNs reason, when APNs rejected the request.
    public var reason: Reason? {
        if case .rejected(let rejection) = self { return rejection.reason }
        return nil
    }
}

/// An APNs error response: status, reason, and for 410 the time the token became invalid.
public struct APNsRejection: Sendable, Equatable, CustomStringConvertible {
    public let status: Int
    public let reason: Reason
    public let apnsID: String?
    public let uniqueID: String?
    /// For 410: when APNs last confirmed the token was invalid, in milliseconds since 1970.
    public let timestampMilliseconds: Int?

    public init(
        status: Int, reason: Reason, apnsID: String?, uniqueID: String? = nil, timestampMilliseconds: Int? = nil
    ) {
        self.status = status
        self.reason = reason
        self.apnsID = apnsID
        self.uniqueID = uniqueID
        self.timestampMilliseconds = timestampMilliseconds
    }

    public var description: String {
        var text = "\(status) \(reason)"
        if let summary = reason.info?.summary { text += ": \(summary)" }
        if let timestampMilliseconds { text += " (invalid since \(timestampMilliseconds) ms)" }
        return text
    }
}

/// A request that got no response.
public struct TransportFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as far as it decides whether trying again can help.
    public enum Kind: Sendable, Equatable {
        /// A failure a later attempt may get past: a refused, reset or closed connection, a
        /// timeout, GOAWAY, a refused stream.
        case other
        /// The server's certificate did not verify against the trusted CAs: every connection
        /// meets the same certificate until the configuration changes (`caFile`).
        case certificateVerificationFailed
    }

    /// false when the request certainly did not reach APNs (refused stream, stream above GOAWAY's
    /// last-stream-id, never written): safe to resend without risking a duplicate.
    public let mayHaveReachedAPNs: Bool
    public let message: String
    public let kind: Kind

    public init(mayHaveReachedAPNs: Bool, message: String, kind: Kind = .other) {
        self.mayHaveReachedAPNs = mayHaveReachedAPNs
        self.message = message
        self.kind = kind
    }

    /// Whether a resend would fail the same way (the retry policy never resends it).
    public var isPermanent: Bool { kind == .certificateVerificationFailed }

    public var description: String { message }
}
