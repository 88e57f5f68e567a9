import APNs
import APNsClient
import Keys
import Synchronization
import Testing

/// A transport that answers from a script and records what it was asked.
final class ScriptedTransport: APNsTransport {
    private let script: Mutex<[Result<RawResponse, APNsClientError>]>
    private let seen = Mutex<[APNsRequest]>([])

    init(_ script: [Result<RawResponse, APNsClientError>]) {
        self.script = Mutex(script)
    }

    var requests: [APNsRequest] { seen.withLock { $0 } }
    var connectionCount: Int { 1 }

    func perform(_ request: APNsRequest, timeout: Duration) async -> Result<RawResponse, APNsClientError> {
        seen.withLock { $0.append(request) }
        return script.withLock { $0.isEmpty ? .success(RawResponse(status: 200, apnsID: request.apnsID)) : $0.removeFirst() }
    }

    func shutdown() async {}
}

@Suite(.timeLimit(.minutes(1)))
struct APNsClientTests {
    let notification: Notification
    let fastRetries = RetryPolicy(maximumAttempts: 3, baseDelay: .milliseconds(1), maximumDelay: .milliseconds(2))

    init() throws {
        notification = Notification(
            token: try DeviceToken(hex: String(repeating: "ab", count: 32)), topic: try Topic("com.example.app"),
            payload: Payload.alert(body: "Hi"))
    }

    static func error(_ status: Int, _ reason: String, timestamp: Int? = nil) -> Result<RawResponse, APNsClientError> {
        let body = timestamp.map { #"{"reason":"\#(reason)","timestamp":\#($0)}"# } ?? #"{"reason":"\#(reason)"}"#
        return .success(RawResponse(status: status, body: Array(body.utf8)))
    }

    func client(_ transport: ScriptedTransport, credentials: APNsClient.Credentials = .certificate,
                prune: (@Sendable (APNsClient.PrunableToken) -> Void)? = nil) -> APNsClient {
        APNsClient(endpoint: .sandbox, credentials: credentials, transport: transport, retryPolicy: fastRetries,
                   onPrunableToken: prune)
    }

    @Test func successReturnsTheApnsID() async throws {
        let transport = ScriptedTransport([])
        let response = try await client(transport).send(notification)
        #expect(transport.requests.count == 1)
        #expect(response.apnsID == transport.requests[0].apnsID)
        #expect(transport.requests[0].header("authorization") == nil)
    }

    @Test func retriesServiceUnavailableWithTheSameApnsID() async throws {
        let transport = ScriptedTransport([Self.error(503, "ServiceUnavailable"), Self.error(500, "InternalServerError")])
        let apnsClient = client(transport)
        _ = try await apnsClient.send(notification)
        #expect(transport.requests.count == 3)
        #expect(Set(transport.requests.map(\.apnsID)).count == 1)
        let metrics = apnsClient.metrics
        #expect(metrics.sent == 3)
        #expect(metrics.retried == 2)
        #expect(metrics.succeeded == 1)
        #expect(metrics.inFlight == 0)
    }

    @Test func givesUpAfterTheLastAttempt() async {
        let transport = ScriptedTransport(Array(repeating: Self.error(429, "TooManyRequests"), count: 5))
        let apnsClient = client(transport)
        await #expect(throws: APNsClientError.self) { try await apnsClient.send(notification) }
        #expect(transport.requests.count == 3)
        #expect(apnsClient.metrics.failedByReason == ["TooManyRequests": 1])
    }

    @Test func neverRetriesBadDeviceTokenAndReportsItForPruning() async {
        let pruned = Mutex<[APNsClient.PrunableToken]>([])
        let transport = ScriptedTransport([Self.error(400, "BadDeviceToken")])
        let apnsClient = client(transport, prune: { token in pruned.withLock { $0.append(token) } })
        do {
            _ = try await apnsClient.send(notification)
            Issue.record("expected a rejection")
        } catch {
            #expect(error.reason == .badDeviceToken)
        }
        #expect(transport.requests.count == 1)
        #expect(pruned.withLock { $0.map(\.reason) } == [.badDeviceToken])
    }

    @Test func pruneCallbackCarriesThe410Timestamp() async {
        let pruned = Mutex<[APNsClient.PrunableToken]>([])
        let transport = ScriptedTransport([Self.error(410, "Unregistered", timestamp: 1_767_225_600_123)])
        let apnsClient = client(transport, prune: { token in pruned.withLock { $0.append(token) } })
        _ = try? await apnsClient.send(notification)
        let reported = pruned.withLock { $0 }
        #expect(reported.count == 1)
        #expect(reported.first?.token == notification.token)
        #expect(reported.first?.invalidSinceMilliseconds == 1_767_225_600_123)
    }

    @Test func transportFailureBeforeTheServerIsResent() async throws {
        let transport = ScriptedTransport([.failure(.transport(TransportFailure(mayHaveReachedAPNs: false, message: "refused stream")))])
        _ = try await client(transport).send(notification)
        #expect(transport.requests.count == 2)
    }

    @Test func transportFailureThatMayHaveBeenDeliveredIsNotResent() async {
        let transport = ScriptedTransport([.failure(.transport(TransportFailure(mayHaveReachedAPNs: true, message: "connection reset")))])
        await #expect(throws: APNsClientError.transport(TransportFailure(mayHaveReachedAPNs: true, message: "connection reset"))) {
            try await client(transport).send(notification)
        }
        #expect(transport.requests.count == 1)
    }

    @Test func expiredProviderTokenIsResignedOnceAndRetried() async throws {
        let now = Atomic<Int>(1_700_000_000)
        let signer = try ProviderTokenSigner(key: try P256PrivateKey.generate(), keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let cache = try ProviderTokenCache(signer: signer, clock: { now.load(ordering: .relaxed) })
        _ = try cache.token()
        now.add(25 * 60, ordering: .relaxed)  // old enough to re-sign without TooManyProviderTokenUpdates
        let transport = ScriptedTransport([Self.error(403, "ExpiredProviderToken"), Self.error(403, "ExpiredProviderToken")])
        let apnsClient = client(transport, credentials: .token(cache))
        do {
            _ = try await apnsClient.send(notification)
            Issue.record("the second ExpiredProviderToken must not be retried again")
        } catch {
            #expect(error.reason == .expiredProviderToken)
        }
        #expect(transport.requests.count == 2)
        let authorizations = transport.requests.compactMap { $0.header("authorization") }
        #expect(authorizations.count == 2)
        #expect(authorizations[0] != authorizations[1], "the retry carries a freshly signed token")
        #expect(cache.signatureCount == 2)
    }

    @Test func oversizedPayloadIsRefusedBeforeAnyIO() async {
        let transport = ScriptedTransport([])
        var big = notification
        big.payload = EncodedPayload(bytes: Array(repeating: UInt8(ascii: " "), count: 4097))
        await #expect(throws: APNsClientError.self) { try await client(transport).send(big) }
        #expect(transport.requests.isEmpty)
    }
}

@Suite(.timeLimit(.minutes(1)))
struct BatchTests {
    @Test func everyNotificationGetsOneResultWithBoundedConcurrency() async throws {
        let transport = CountingTransport()
        let client = APNsClient(endpoint: .sandbox, credentials: .certificate, transport: transport)
        let notifications = try (0..<500).map { index in
            Notification(
                token: try DeviceToken(hex: String(repeating: "0", count: 64 - String(index, radix: 16).count) + String(index, radix: 16)), topic: try Topic("com.example.app"),
                payload: Payload.alert(body: "n\(index)"))
        }
        var seen = Set<String>()
        await client.sendAll(notifications, concurrency: 8) { notification, result in
            #expect((try? result.get()) != nil)
            seen.insert(notification.token.hex)
        }
        #expect(seen.count == 500)
        #expect(transport.mostInFlight.load(ordering: .relaxed) <= 8)
        #expect(transport.mostInFlight.load(ordering: .relaxed) > 1)
    }
}

/// Answers 200 after yielding; records the most requests in flight at once.
final class CountingTransport: APNsTransport {
    let inFlight = Atomic<Int>(0)
    let mostInFlight = Atomic<Int>(0)
    var connectionCount: Int { 1 }

    func perform(_ request: APNsRequest, timeout: Duration) async -> Result<RawResponse, APNsClientError> {
        let now = inFlight.add(1, ordering: .relaxed).newValue
        var most = mostInFlight.load(ordering: .relaxed)
        while now > most {
            let (done, original) = mostInFlight.compareExchange(expected: most, desired: now, ordering: .relaxed)
            if done { break }
            most = original
        }
        try? await Task.sleep(for: .milliseconds(1))
        inFlight.subtract(1, ordering: .relaxed)
        return .success(RawResponse(status: 200, apnsID: request.apnsID))
    }

    func shutdown() async {}
}
