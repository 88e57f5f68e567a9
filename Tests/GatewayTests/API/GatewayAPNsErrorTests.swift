import APNs
import APNsClient
import Testing

@testable import Gateway

/// Every `APNsClientError` has its gateway error (docs/GATEWAY.md, "Errors"), including the ones a
/// loopback emulator cannot provoke (a provider token that cannot be signed).
@Suite(.timeLimit(.minutes(1)))
struct GatewayAPNsErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let error: APNsClientError
        let channel: Bool
        let status: Int
        let code: String
        let field: String?
        let reason: String?

        var testDescription: String { "\(error) (channel: \(channel))" }
    }

    static let cases: [Case] = [
        Case(
            error: .rejected(APNsRejection(status: 400, reason: .channelNotRegistered, apnsID: "r")), channel: true,
            status: 404, code: "unknown-channel", field: "channel-id", reason: nil),
        // Without a channel in the request, ChannelNotRegistered is APNs's own business.
        Case(
            error: .rejected(APNsRejection(status: 400, reason: .channelNotRegistered, apnsID: "r")), channel: false,
            status: 502, code: "apns-error", field: nil, reason: "ChannelNotRegistered"),
        Case(
            error: .rejected(APNsRejection(status: 400, reason: .cannotCreateChannelConfig, apnsID: nil)),
            channel: false, status: 502, code: "apns-error", field: nil, reason: "CannotCreateChannelConfig"),
        Case(
            error: .rejected(APNsRejection(status: 429, reason: .tooManyRequests, apnsID: nil)), channel: true,
            status: 502, code: "apns-error", field: nil, reason: "TooManyRequests"),
        Case(
            error: .transport(TransportFailure(mayHaveReachedAPNs: false, message: "connection refused")),
            channel: false, status: 503, code: "apns-unavailable", field: nil, reason: nil),
        Case(
            error: .timedOut(afterSeconds: 30), channel: true, status: 503, code: "apns-unavailable", field: nil,
            reason: nil),
        Case(error: .shutDown, channel: false, status: 503, code: "apns-unavailable", field: nil, reason: nil),
        Case(
            error: .providerToken(.invalidIdentifier(field: "key-id", value: "short")), channel: false, status: 500,
            code: "apns-client-failure", field: nil, reason: nil),
        Case(
            error: .invalidConfiguration("no endpoint"), channel: false, status: 500, code: "apns-client-failure",
            field: nil, reason: nil),
        Case(
            error: .invalidNotification("bundle id is empty"), channel: false, status: 500,
            code: "apns-client-failure", field: nil, reason: nil),
    ]

    @Test(arguments: cases)
    func anAPNsFailureIsAGatewayError(_ mapping: Case) throws {
        let channel = mapping.channel ? try ChannelID("dW5rbm93bg==") : nil
        let error = GatewayAPIError.apns(mapping.error, environment: .sandbox, channel: channel)
        #expect(error.status == mapping.status && error.code == mapping.code)
        #expect(error.field == mapping.field)
        #expect(error.body["error"]?["reason"]?.stringValue == mapping.reason)
        #expect(error.message.contains("sandbox"), "the message names the environment: \(error.message)")
    }
}
