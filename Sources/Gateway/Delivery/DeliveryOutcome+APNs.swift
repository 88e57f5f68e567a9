// How an APNs client's answer becomes a queue outcome:
//
//   200                                   -> succeeded (apns-unique-id)
//   429, 5xx                              -> retryable: the queue's backoff, then failed at the cap
//   other 4xx                             -> failed, final (410 with its timestamp: the pruning rule)
//   transport failure, timeout            -> retryable
//   provider token, client configuration  -> retryable (fixing the credentials and restarting
//                                            within the backoff window saves the deliveries)
//   the client refused the notification   -> failed
//   the client shut down mid-send         -> nothing recorded: the lease runs out and the delivery
//                                            is sent again, with the same apns-id
//
// The client's own in-send retries (its `RetryPolicy`) come first: an answer here is what was
// left after them (`DeliveryEngineConfiguration.clientRetryPolicy` keeps them short).
import APNs
import APNsClient

/// Reasons the gateway gives for deliveries APNs never answered; they sit beside APNs's own in a
/// delivery's `reason`, the counts by reason and the metrics.
public enum GatewayReason {
    /// Not sent: the gateway has no APNs client (credentials) for the app in this environment.
    public static let noClient = Reason("NoClientForEnvironment")
    /// Not sent: the token was pruned (unregistered or invalid) after the delivery was made.
    public static let tokenNotActive = Reason("TokenNotActive")
    /// Not sent: the stored recipient is not a token (or channel id) Herald can read.
    public static let malformedRecipient = Reason("MalformedRecipient")
    /// Not sent: the APNs client refused the notification before sending it.
    public static let invalidNotification = Reason("InvalidNotification")
    /// No answer: the connection failed (retryable).
    public static let transportFailure = "TransportFailure"
    /// No answer within the client's request timeout (retryable).
    public static let timeout = "Timeout"
    /// The provider token could not be made, or the client is misconfigured (retryable).
    public static let credentials = "ClientCredentials"
}

extension DeliveryOutcome.Result {
    /// The outcome of a send that ended with `result`; nil records nothing (the client shut down).
    static func of(_ result: Result<APNsResponse, APNsClientError>) -> Self? {
        switch result {
        case .success(let response): .succeeded(apnsUniqueID: response.uniqueID)
        case .failure(let error): of(error)
        }
    }

    static func of(_ error: APNsClientError) -> Self? {
        switch error {
        case .rejected(let rejection):
            rejection.status == 429 || rejection.status >= 500
                ? .retryable(reason: rejection.reason.rawValue)
                : .failed(reason: rejection.reason, timestamp: rejection.timestampMilliseconds)
        case .transport: .retryable(reason: GatewayReason.transportFailure)
        case .timedOut: .retryable(reason: GatewayReason.timeout)
        case .providerToken, .invalidConfiguration: .retryable(reason: GatewayReason.credentials)
        case .invalidNotification: .failed(reason: GatewayReason.invalidNotification, timestamp: nil)
        case .shutDown: nil
        }
    }

    /// The metrics' status and reason for this outcome.
    var metricsLabels: (status: GatewayMetrics.SendStatus, reason: String?) {
        switch self {
        case .succeeded: (.succeeded, nil)
        case .retryable(let reason): (.retryable, reason)
        case .failed(let reason, _): (.failed, reason.rawValue)
        }
    }
}
