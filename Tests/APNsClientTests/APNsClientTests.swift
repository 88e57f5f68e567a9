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

/// The client's behaviour, each test run against the scripted fake and against the emulator (the
/// same script played as injected faults, over real loopback HTTP/2).
@Suite(.timeLimit(.minutes(1)))
struct APNsClientTests {
    let notification: Notification
    let fastRetries = RetryPolicy(maximumAttempts: 3, baseDelay: .milliseconds(1), maximumDelay: .milliseconds(2))

    init() throws {
        notification = Notification(
            token: try DeviceToken(hex: String(repeating: "ab", count: 32)), topic: try Topic("com.example.app"),
            payload: Payload.alert(body: "Hi"))
    }

    func client(
        _ backend: ClientBackend, credentials: APNsClient.Credentials? = nil,
        prune: (@Sendable (APNsClient.PrunableToken) -> Void)? = nil
    ) throws -> APNsClient {
        APNsClient(
            endpoint: backend.endpoint, credentials: try credentials ?? backend.credentials(), transport: backend.transport,
            retryPolicy: fastRetries, onPrunableToken: prune)
    }

    @Test(arguments: BackendKind.allCases)
    func successReturnsTheApnsID(_ kind: BackendKind) async throws {
        let backend = try await ClientBackend.make(kind)
        let response = try await client(backend).send(notification)
        #expect(backend.apnsIDs == [response.apnsID])
        if let authorizations = backend.authorizations {
            #expect(authorizations.isEmpty, "certificate auth sends no authorization header")
        }
        await backend.shutdown()
    }

    @Test(arguments: BackendKind.allCases)
    func retriesServiceUnavailableWithTheSameApnsID(_ kind: BackendKind) async throws {
        let backend = try await ClientBackend.make(kind, script: [.reject(503, .serviceUnavailable), .reject(500, .internalServerError)])
        let apnsClient = try client(backend)
        _ = try await apnsClient.send(notification)
        #expect(backend.requestCount == 3)
        #expect(Set(backend.apnsIDs).count == 1)
        let metrics = apnsClient.metrics
        #expect(metrics.sent == 3)
        #expect(metrics.retried == 2)
        #expect(metrics.succeeded == 1)
        #expect(metrics.inFlight == 0)
        await backend.shutdown()
    }

    @Test(arguments: BackendKind.allCases)
    func givesUpAfterTheLastAttempt(_ kind: BackendKind) async throws {
        let backend = try await ClientBackend.make(kind, script: Array(repeating: .reject(429, .tooManyRequests), count: 5))
        let apnsClient = try client(backend)
        await #expect(throws: APNsClientError.self) { try await apnsClient.send(notification) }
        #expect(backend.requestCount == 3)
        #expect(apnsClient.metrics.failedByReason == ["TooManyRequests": 1])
        await backend.shutdown()
    }

    @Test(arguments: BackendKind.allCases)
    func neverRetriesBadDeviceTokenAndReportsItForPruning(_ kind: BackendKind) async throws {
        let pruned = Mutex<[APNsClient.PrunableToken]>([])
        let backend = try await ClientBackend.make(kind, script: [.reject(400, .badDeviceToken)])
        let apnsClient = try client(backend, prune: { token in pruned.withLock { $0.append(token) } })
        let result = await apnsClient.result(for: notification)
        #expect(result.failure?.reason == .badDeviceToken)
        #expect(backend.requestCount == 1)
        #expect(pruned.withLock { $0.map(\.reason) } == [.badDeviceToken])
        await backend.shutdown()
    }

    @Test(arguments: BackendKind.allCases)
    func pruneCallbackCarriesThe410Timestamp(_ kind: BackendKind) async throws {
        let pruned = Mutex<[APNsClient.PrunableToken]>([])
        let backend = try await ClientBackend.make(kind, script: [.reject(410, .unregistered)])
        let apnsClient = try client(backend, prune: { token in pruned.withLock { $0.append(token) } })
        _ = await apnsClient.result(for: notification)
        let reported = pruned.withLock { $0 }
        #expect(reported.count == 1)
        #expect(reported.first?.token == notification.token)
        #expect(reported.first?.invalidSinceMilliseconds == ClientBackend.timestamp)
        await backend.shutdown()
    }

    @Test(arguments: BackendKind.allCases)
    func transportFailureBeforeTheServerIsResent(_ kind: BackendKind) async throws {
        let backend = try await ClientBackend.make(kind, script: [.lostBeforeProcessing])
        _ = try await client(backend).send(notification)
        #expect(backend.requestCount == 2)
        #expect(Set(backend.apnsIDs).count == 1, "the resend keeps the apns-id")
        await backend.shutdown()
    }

    @Test(arguments: BackendKind.allCases)
    func transportFailureThatMayHaveBeenDeliveredIsNotResent(_ kind: BackendKind) async throws {
        let backend = try await ClientBackend.make(kind, script: [.lostAfterSending])
        let result = await (try client(backend)).result(for: notification)
        guard case .failure(.transport(let failure)) = result else {
            Issue.record("expected a transport failure, got \(result)")
            await backend.shutdown()
            return
        }
        #expect(failure.mayHaveReachedAPNs)
        #expect(backend.requestCount == 1)
        await backend.shutdown()
    }

    @Test(arguments: BackendKind.allCases)
    func expiredProviderTokenIsResignedOnceAndRetried(_ kind: BackendKind) async throws {
        let now = Atomic<Int>(1_767_225_600)
        let clock: @Sendable () -> Int = { now.load(ordering: .relaxed) }
        let backend = try await ClientBackend.make(
            kind, script: [.reject(403, .expiredProviderToken), .reject(403, .expiredProviderToken)], clock: clock)
        let cache = try ProviderTokenCache(signer: try backend.signer(), clock: clock)
        _ = try cache.token()
        now.wrappingAdd(25 * 60, ordering: .relaxed)  // old enough to re-sign without TooManyProviderTokenUpdates
        let apnsClient = try client(backend, credentials: .token(cache))
        let result = await apnsClient.result(for: notification)
        #expect(result.failure?.reason == .expiredProviderToken, "the second ExpiredProviderToken is not retried again")
        #expect(backend.requestCount == 2)
        if let authorizations = backend.authorizations {
            #expect(authorizations.count == 2)
            #expect(Set(authorizations).count == 2, "the retry carries a freshly signed token")
        }
        #expect(cache.signatureCount == 2)
        await backend.shutdown()
    }

    @Test(arguments: BackendKind.allCases)
    func oversizedPayloadIsRefusedBeforeAnyIO(_ kind: BackendKind) async throws {
        let backend = try await ClientBackend.make(kind)
        var big = notification
        big.payload = EncodedPayload(bytes: Array(repeating: UInt8(ascii: " "), count: 4097))
        await #expect(throws: APNsClientError.self) { try await client(backend).send(big) }
        #expect(backend.requestCount == 0)
        await backend.shutdown()
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
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

@Suite(.timeLimit(.minutes(1)))
struct EmulatorBatchTests {
    /// The batch API against the emulator: every notification gets exactly one result, and the
    /// emulator saw each once.
    @Test func everyNotificationGetsOneResultFromTheEmulator() async throws {
        let backend = try await ClientBackend.make(.emulator)
        let client = APNsClient(endpoint: backend.endpoint, credentials: try backend.credentials(), transport: backend.transport)
        let notifications = try (0..<500).map { index in
            Notification(
                token: try DeviceToken(hex: String(format: "%064x", index)), topic: try Topic("com.example.app"),
                payload: Payload.alert(body: "n\(index)"))
        }
        var results: [String: Int] = [:]
        await client.sendAll(notifications, concurrency: 64) { notification, result in
            results[notification.token.hex, default: 0] += 1
            #expect((try? result.get()) != nil)
        }
        #expect(results.count == 500 && results.values.allSatisfy { $0 == 1 })
        #expect(backend.requestCount == 500)
        await backend.shutdown()
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
