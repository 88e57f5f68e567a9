import APNs
import APNsClient
import Testing

@Suite(.timeLimit(.minutes(1)))
struct EndpointTests {
    @Test(arguments: [
        ("https://api.push.apple.com", "api.push.apple.com", 443, true, "https://api.push.apple.com"),
        ("api.sandbox.push.apple.com:2197", "api.sandbox.push.apple.com", 2197, true, "https://api.sandbox.push.apple.com:2197"),
        ("http://127.0.0.1:8080/", "127.0.0.1", 8080, false, "http://127.0.0.1:8080"),
        ("https://[::1]:4433", "::1", 4433, true, "https://[::1]:4433"),
        ("localhost", "localhost", 443, true, "https://localhost"),
    ])
    func parses(_ text: String, _ host: String, _ port: Int, _ tls: Bool, _ description: String) throws {
        let endpoint = try APNsEndpoint(url: text)
        #expect(endpoint.host == host)
        #expect(endpoint.port == port)
        #expect(endpoint.usesTLS == tls)
        #expect(endpoint.description == description)
    }

    @Test(arguments: ["ftp://x", "https://", "https://host:0", "https://host:70000", "https://[::1", "https://host:port"])
    func rejects(_ text: String) {
        #expect(throws: APNsClientError.self) { try APNsEndpoint(url: text) }
    }

    @Test func appleHosts() {
        #expect(APNsEndpoint.production.description == "https://api.push.apple.com")
        #expect(APNsEndpoint.sandbox.onAlternativePort().description == "https://api.sandbox.push.apple.com:2197")
    }
}

@Suite(.timeLimit(.minutes(1)))
struct ResponseDecoderTests {
    @Test func success() {
        let result = ResponseDecoder.decode(status: 200, apnsID: "ABCDEF01-0000-0000-0000-000000000000", uniqueID: "u-1", body: [])
        #expect(result == .success(APNsResponse(apnsID: "abcdef01-0000-0000-0000-000000000000", uniqueID: "u-1")))
    }

    @Test func rejectionWithReason() {
        let result = ResponseDecoder.decode(status: 400, apnsID: "id", uniqueID: nil, body: Array(#"{"reason":"BadDeviceToken"}"#.utf8))
        guard case .failure(.rejected(let rejection)) = result else {
            Issue.record("expected a rejection, got \(result)")
            return
        }
        #expect(rejection.status == 400)
        #expect(rejection.reason == .badDeviceToken)
        #expect(rejection.reason.prunesToken)
        #expect(rejection.timestampMilliseconds == nil)
        #expect(rejection.description.hasPrefix("400 BadDeviceToken: "))
    }

    @Test func unregisteredCarriesTimestamp() {
        let body = Array(#"{"reason":"Unregistered","timestamp":1767225600123}"#.utf8)
        let result = ResponseDecoder.decode(status: 410, apnsID: nil, uniqueID: nil, body: body)
        guard case .failure(.rejected(let rejection)) = result else {
            Issue.record("expected a rejection")
            return
        }
        #expect(rejection.reason == .unregistered)
        #expect(rejection.timestampMilliseconds == 1_767_225_600_123)
    }

    @Test(arguments: [(429, "TooManyRequests"), (500, "InternalServerError"), (503, "ServiceUnavailable"), (502, "HTTP502")])
    func unreadableBodyFallsBackByStatus(_ status: Int, _ reason: String) {
        let result = ResponseDecoder.decode(status: status, apnsID: nil, uniqueID: nil, body: Array("<html>bad gateway</html>".utf8))
        #expect(result.failureReason == Reason(reason))
    }

    @Test func unknownReasonSurvives() {
        let result = ResponseDecoder.decode(status: 400, apnsID: nil, uniqueID: nil, body: Array(#"{"reason":"SomethingNew"}"#.utf8))
        #expect(result.failureReason?.rawValue == "SomethingNew")
        #expect(result.failureReason?.isDocumented == false)
    }
}

extension Result where Success == APNsResponse, Failure == APNsClientError {
    var failureReason: Reason? {
        if case .failure(let error) = self { return error.reason }
        return nil
    }
}

@Suite(.timeLimit(.minutes(1)))
struct RetryPolicyTests {
    let policy = RetryPolicy(maximumAttempts: 4, baseDelay: .milliseconds(100), maximumDelay: .seconds(1))

    static func rejection(_ reason: Reason) -> APNsClientError {
        .rejected(APNsRejection(status: reason.status ?? 400, reason: reason, apnsID: nil))
    }

    @Test(arguments: [Reason.tooManyRequests, .internalServerError, .serviceUnavailable, .shutdown])
    func retriesTemporaryFailures(_ reason: Reason) {
        #expect(policy.isRetryable(Self.rejection(reason)))
    }

    @Test(arguments: [
        Reason.badDeviceToken, .deviceTokenNotForTopic, .forbidden, .expiredToken, .unregistered, .payloadTooLarge,
        .badTopic, .tooManyProviderTokenUpdates, .expiredProviderToken, Reason("Unknown"),
    ])
    func neverRetriesWhatAppleSaysNotTo(_ reason: Reason) {
        #expect(!policy.isRetryable(Self.rejection(reason)))
        #expect(policy.delay(afterAttempt: 1, failingWith: Self.rejection(reason), random: { 1 }) == nil)
    }

    @Test func transportFailuresRetryOnlyWhenNotDelivered() {
        #expect(policy.isRetryable(.transport(TransportFailure(mayHaveReachedAPNs: false, message: "refused stream"))))
        #expect(!policy.isRetryable(.transport(TransportFailure(mayHaveReachedAPNs: true, message: "connection reset"))))
        #expect(!policy.isRetryable(.timedOut(afterSeconds: 10)))
        var eager = policy
        eager.resendPossiblyDelivered = true
        #expect(eager.isRetryable(.transport(TransportFailure(mayHaveReachedAPNs: true, message: "connection reset"))))
    }

    @Test func exponentialBackoffWithFullJitterAndCap() {
        let error = Self.rejection(.serviceUnavailable)
        #expect(policy.delay(afterAttempt: 1, failingWith: error, random: { 1 }) == .milliseconds(100))
        #expect(policy.delay(afterAttempt: 2, failingWith: error, random: { 1 }) == .milliseconds(200))
        #expect(policy.delay(afterAttempt: 3, failingWith: error, random: { 1 }) == .milliseconds(400))
        #expect(policy.delay(afterAttempt: 4, failingWith: error, random: { 1 }) == nil, "four attempts in all")
        #expect(policy.delay(afterAttempt: 2, failingWith: error, random: { 0.5 }) == .milliseconds(100))
        #expect(policy.delay(afterAttempt: 1, failingWith: error, random: { 0 }) == .zero)
        let long = RetryPolicy(maximumAttempts: 40, baseDelay: .milliseconds(100), maximumDelay: .seconds(1))
        #expect(long.delay(afterAttempt: 30, failingWith: error, random: { 1 }) == .seconds(1))
        #expect(RetryPolicy.none.delay(afterAttempt: 1, failingWith: error, random: { 1 }) == nil)
    }
}

@Suite(.timeLimit(.minutes(1)))
struct LatencyHistogramTests {
    @Test func percentilesWithinBucketPrecision() {
        var histogram = LatencyHistogram()
        for value in 1...10_000 { histogram.record(microseconds: UInt64(value)) }
        #expect(histogram.count == 10_000)
        for (fraction, exact) in [(0.5, 5000.0), (0.9, 9000.0), (0.99, 9900.0)] {
            let estimate = Double(histogram.percentile(fraction))
            #expect(abs(estimate - exact) / exact < 0.07, "p\(fraction): \(estimate) vs \(exact)")
        }
        #expect(histogram.percentile(1) == 10_000)
        #expect(LatencyHistogram().percentile(0.5) == 0)
    }

    @Test func smallAndHugeValues() {
        var histogram = LatencyHistogram()
        histogram.record(microseconds: 0)
        histogram.record(microseconds: 3)
        histogram.record(microseconds: 600_000_000_000)
        #expect(histogram.percentile(0.33) == 0)
        #expect(histogram.percentile(0.5) == 3)
        #expect(histogram.percentile(1) == 600_000_000_000)
    }

    @Test func merge() {
        var a = LatencyHistogram()
        var b = LatencyHistogram()
        for value in 1...100 { a.record(microseconds: UInt64(value)) }
        for value in 101...200 { b.record(microseconds: UInt64(value)) }
        a.merge(b)
        #expect(a.count == 200)
        #expect(a.maximumMicroseconds == 200)
    }
}

@Suite(.timeLimit(.minutes(1)))
struct APNsRequestTests {
    @Test func headersInOrderWithGeneratedID() throws {
        let notification = Notification(
            token: try DeviceToken(hex: String(repeating: "AB", count: 32)), topic: try Topic("com.example.app"),
            pushType: .background, priority: .powerConsiderate, expiration: .immediately,
            collapseID: try CollapseID("sync"), payload: Payload.background())
        let request = APNsRequest(notification: notification, authority: "api.push.apple.com", authorization: "bearer x.y.z")
        #expect(request.headers.map(\.name) == [
            ":method", ":scheme", ":path", ":authority", "authorization", "apns-push-type", "apns-topic", "apns-priority",
            "apns-expiration", "apns-collapse-id", "apns-id",
        ])
        #expect(request.header(":path") == "/3/device/" + String(repeating: "ab", count: 32))
        #expect(request.header("apns-expiration") == "0")
        #expect((try? APNsID(request.apnsID)) != nil)
        #expect(request.header("apns-id") == request.apnsID)
        #expect(request.body == Array(#"{"aps":{"content-available":1}}"#.utf8))
    }

    @Test func certificateAuthSendsNoAuthorizationAndKeepsGivenID() throws {
        let id = try APNsID("123E4567-E89B-12D3-A456-426655440000")
        let notification = Notification(
            token: try DeviceToken(hex: "abcd"), topic: nil, apnsID: id, payload: Payload.alert(body: "Hi"))
        let request = APNsRequest(notification: notification, authority: "localhost:2197", authorization: nil)
        #expect(request.header("authorization") == nil)
        #expect(request.header("apns-topic") == nil)
        #expect(request.apnsID == "123e4567-e89b-12d3-a456-426655440000")
    }
}
