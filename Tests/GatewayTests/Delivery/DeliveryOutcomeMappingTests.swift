import APNs
import APNsClient
import Testing

@testable import Gateway

/// How each kind of answer becomes a queue outcome (the table atop DeliveryOutcome+APNs.swift).
struct DeliveryOutcomeMappingTests {
    static func rejected(_ status: Int, _ reason: Reason, timestamp: Int? = nil) -> APNsClientError {
        .rejected(APNsRejection(status: status, reason: reason, apnsID: nil, timestampMilliseconds: timestamp))
    }

    static let cases: [(String, Result<APNsResponse, APNsClientError>, DeliveryOutcome.Result?)] = [
        ("200", .success(APNsResponse(apnsID: "x", uniqueID: "u")), .succeeded(apnsUniqueID: "u")),
        ("429", .failure(rejected(429, .tooManyRequests)), .retryable(reason: "TooManyRequests")),
        ("500", .failure(rejected(500, .internalServerError)), .retryable(reason: "InternalServerError")),
        ("503", .failure(rejected(503, .serviceUnavailable)), .retryable(reason: "ServiceUnavailable")),
        ("502 without a body", .failure(rejected(502, Reason("HTTP502"))), .retryable(reason: "HTTP502")),
        ("400", .failure(rejected(400, .badDeviceToken)), .failed(reason: .badDeviceToken, timestamp: nil)),
        ("403", .failure(rejected(403, .invalidProviderToken)), .failed(reason: .invalidProviderToken, timestamp: nil)),
        ("410", .failure(rejected(410, .unregistered, timestamp: 42)), .failed(reason: .unregistered, timestamp: 42)),
        ("413", .failure(rejected(413, .payloadTooLarge)), .failed(reason: .payloadTooLarge, timestamp: nil)),
        (
            "transport", .failure(.transport(TransportFailure(mayHaveReachedAPNs: true, message: "reset"))),
            .retryable(reason: "TransportFailure")
        ),
        ("timeout", .failure(.timedOut(afterSeconds: 30)), .retryable(reason: "Timeout")),
        ("configuration", .failure(.invalidConfiguration("x")), .retryable(reason: "ClientCredentials")),
        (
            "invalid", .failure(.invalidNotification("x")),
            .failed(reason: GatewayReason.invalidNotification, timestamp: nil)
        ),
        ("shut down: nothing recorded", .failure(.shutDown), nil),
    ]

    @Test(arguments: cases)
    func answers(name: String, answer: Result<APNsResponse, APNsClientError>, expected: DeliveryOutcome.Result?) {
        #expect(DeliveryOutcome.Result.of(answer) == expected, "\(name)")
    }
}
