import APNs
import APNsClient
import Emulator
import HTTP2
import HeraldTestSupport
import Keys
import Synchronization
import Testing

/// What a `sendEach` run saw, gathered on the loop (one call at a time) and read after it returns.
final class BulkTally: @unchecked Sendable {
    // SAFETY: written only by `sendEach`'s callbacks, which run one at a time on the transport's
    // loop; read by the test after `sendEach` has returned (the continuation orders the accesses).
    var taken = 0
    var results = 0
    var mostInFlight = 0
    var succeeded = 0
    var failed: [String: Int] = [:]
    var apnsIDs: Set<String> = []
    var onLoop = true
}

/// `APNsClient.sendEach` over the HTTP/2 pool (the bulk path: no task per notification), against
/// the emulator's fault injection on loopback.
@Suite(.timeLimit(.minutes(1)))
struct BulkSenderTests {
    struct Scenario: Sendable, CustomStringConvertible {
        let name: String
        let faults: [Fault]
        /// Failures expected by label, all others succeed.
        let failures: [String: Int]
        var description: String { name }
    }

    static let token = String(repeating: "cd", count: 32)
    static let rejected = String(repeating: "ef", count: 32)

    static let scenarios: [Scenario] = [
        Scenario(name: "clean", faults: [], failures: [:]),
        Scenario(
            name: "refused streams are resent",
            faults: [Fault(action: .reset(.refusedStream), selection: .next(40))], failures: [:]),
        Scenario(
            name: "503 and 429 are retried",
            faults: [
                Fault(action: .respond(status: 503, reason: .serviceUnavailable), selection: .next(30)),
                Fault(action: .respond(status: 429, reason: .tooManyRequests), selection: .next(20)),
            ], failures: [:]),
        Scenario(
            name: "an expired provider token is re-signed",
            faults: [
                Fault(action: .respond(status: 403, reason: .expiredProviderToken), selection: .next(5))
            ], failures: [:]),
        Scenario(
            name: "rejections end at once",
            faults: [
                Fault(
                    action: .respond(status: 400, reason: .badDeviceToken), selection: .fraction(1), token: rejected)
            ], failures: ["BadDeviceToken": 100]),
    ]

    /// 1,000 notifications, every tenth to `rejected`, at most 64 in flight.
    @Test(arguments: scenarios)
    func everyNotificationEndsExactlyOnce(_ scenario: Scenario) async throws {
        let total = 1000
        let world = try await BulkWorld.start(faults: scenario.faults)
        let tally = BulkTally()
        let loop = world.loops.loops[0]
        var sent = 0
        let notifications = try (0..<10).map { index in
            APNs.Notification(
                token: try DeviceToken(hex: index == 0 ? Self.rejected : Self.token),
                topic: try Topic("com.example.app"),
                payload: Payload.alert(body: "bulk \(index)"))
        }
        await world.client.sendEach(concurrency: 64) {
            guard sent < total else { return nil }
            tally.taken += 1
            tally.mostInFlight = max(tally.mostInFlight, tally.taken - tally.results)
            defer { sent += 1 }
            return notifications[sent % 10]
        } onResult: { notification, result in
            tally.results += 1
            if !loop.inEventLoop { tally.onLoop = false }
            if let id = notification.apnsID?.value { tally.apnsIDs.insert(id) }
            switch result {
            case .success: tally.succeeded += 1
            case .failure(let error): tally.failed[StressTests.label(error), default: 0] += 1
            }
        }
        #expect(tally.taken == total && tally.results == total, "every notification taken and ended once")
        #expect(tally.apnsIDs.count == total, "each notification had its own apns-id")
        #expect(tally.mostInFlight <= 64, "concurrency bounds what is held: \(tally.mostInFlight)")
        #expect(tally.onLoop, "callbacks run on the transport's loop")
        #expect(tally.failed == scenario.failures)
        #expect(tally.succeeded == total - scenario.failures.values.reduce(0, +))
        let metrics = world.client.metrics
        #expect(
            metrics.succeeded == tally.succeeded && metrics.failed == total - tally.succeeded && metrics.inFlight == 0)
        // Counted on the loop and added now and then: complete once `sendEach` has returned.
        #expect(metrics.latency.count == UInt64(total), "a latency for each notification")
        #expect(metrics.sent == total + metrics.retried, "each first send and each resend written once: \(metrics)")
        #expect(world.emulator.log.counts.byStatus[200] == tally.succeeded, "each success was accepted once")
        if scenario.name.hasPrefix("refused") {
            // The pool resends a refused request up to 5 times; refused again, it fails as never
            // sent and the retry policy sends it once more.
            #expect(
                world.transport.resentCount > 0 && world.transport.resentCount + metrics.retried == 40,
                "refused streams are sent again: \(world.transport.resentCount) resent, \(metrics.retried) retried")
        }
        if scenario.name.hasPrefix("an expired") {
            #expect(metrics.retried == 5 && world.transport.resentCount == 0, "each sent again once, re-signed")
        }
        if scenario.name.hasPrefix("503") {
            #expect(metrics.retried == 50 && world.transport.resentCount == 0, "the retry policy resends them")
        }
        await world.stop()
    }

    @Test func oversizedPayloadsFailWithoutBeingSent() async throws {
        let world = try await BulkWorld.start(faults: [])
        let big = try APNs.Notification(
            token: DeviceToken(hex: Self.token), topic: Topic("com.example.app"),
            payload: Payload.alert(body: String(repeating: "x", count: 5000)))
        let small = try APNs.Notification(
            token: DeviceToken(hex: Self.token), topic: Topic("com.example.app"), payload: Payload.alert(body: "ok"))
        let queue = Mutex([big, small, big])
        let outcomes = Mutex<[String]>([])
        await world.client.sendEach(concurrency: 2) {
            queue.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        } onResult: { _, result in
            let label = (try? result.get()).map { _ in "ok" } ?? result.failureLabel
            outcomes.withLock { $0.append(label) }
        }
        #expect(outcomes.withLock { $0.sorted() } == ["invalid", "invalid", "ok"])
        #expect(world.emulator.log.counts.total == 1, "only the small one reached the server")
        await world.stop()
    }

    @Test func anUnreachableServerFailsEveryNotification() async throws {
        let refusing = try RefusingPort()  // nothing listens there: connects are refused
        defer { refusing.close() }
        let port = refusing.port
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(port)")
        let transport = try HTTP2Transport(
            configuration: TransportConfiguration(endpoint: endpoint, maximumConnections: 1))
        let client = APNsClient(
            endpoint: endpoint, credentials: .certificate, transport: transport,
            retryPolicy: RetryPolicy(maximumAttempts: 1))
        let note = try APNs.Notification(
            token: DeviceToken(hex: Self.token), topic: Topic("com.example.app"), payload: Payload.alert(body: "x"))
        let remaining = Mutex(50)
        let failures = Mutex(0)
        await client.sendEach(concurrency: 100) {
            remaining.withLock { count in
                guard count > 0 else { return nil }
                count -= 1
                return note
            }
        } onResult: { _, result in
            if case .failure(.transport(let failure)) = result, !failure.mayHaveReachedAPNs {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 50, "each failed as never sent")
        #expect(client.metrics.failed == 50)
        await client.shutdown()
    }
}

extension Result where Failure == APNsClientError {
    var failureLabel: String {
        guard case .failure(let error) = self else { return "ok" }
        if case .invalidNotification = error { return "invalid" }
        return StressTests.label(error)
    }
}

/// An emulator with faults and a token-auth client over the HTTP/2 pool with quick retries.
struct BulkWorld {
    /// The client's one loop (the test checks the callbacks run on it).
    let loops: EventLoopGroup
    let emulator: Emulator
    let serverLoops: EventLoopGroup
    let transport: HTTP2Transport
    let client: APNsClient

    /// The emulator's time (UNIX seconds). The client's first token is signed 25 minutes before
    /// it, later ones at it: a token APNs calls expired may be re-signed (the 20-minute rule).
    static let now = 1_767_225_600

    /// `streams`: the emulator's SETTINGS_MAX_CONCURRENT_STREAMS, before and after authentication.
    static func start(faults: [Fault], streams: UInt32? = nil) async throws -> BulkWorld {
        let now = Self.now
        let signed = Atomic(false)
        let clientClock: @Sendable () -> Int = {
            signed.exchange(true, ordering: .relaxed) ? now : now - 25 * 60
        }
        let key = try P256PrivateKey.generate()
        let loops = try EventLoopGroup(loopCount: 1, name: "bulk-emulator")
        var configuration = EmulatorConfiguration(
            keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)])
        if let streams {
            configuration.initialMaxConcurrentStreams = streams
            configuration.authenticatedMaxConcurrentStreams = streams
        }
        let emulator = try await Emulator.start(configuration, loops: loops, clock: { now })
        for fault in faults { emulator.faults.add(fault) }
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(emulator.port)")
        let clientLoops = try EventLoopGroup(loopCount: 1, name: "bulk-client")
        let transport = try HTTP2Transport(
            configuration: TransportConfiguration(endpoint: endpoint, maximumConnections: 2), loops: clientLoops)
        let signer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let client = APNsClient(
            endpoint: endpoint, credentials: .token(try ProviderTokenCache(signer: signer, clock: clientClock)), transport: transport,
            retryPolicy: RetryPolicy(maximumAttempts: 3, baseDelay: .microseconds(200), maximumDelay: .milliseconds(2)),
            requestTimeout: .seconds(20))
        return BulkWorld(
            loops: clientLoops, emulator: emulator, serverLoops: loops, transport: transport, client: client)
    }

    func stop() async {
        await client.shutdown()
        await loops.shutdown()
        await emulator.shutdown()
        await serverLoops.shutdown()
    }
}
