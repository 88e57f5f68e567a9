import APNs
import APNsClient
import Emulator
import HTTP2
import Keys
import Synchronization
import Testing

/// `sendEach` while the client shuts down with resends waiting on their retry delay: every
/// notification taken still ends exactly once (as answered, or as shut down), and the send
/// returns at once instead of after the delay.
@Suite(.timeLimit(.minutes(1)))
struct BulkSenderShutdownTests {
    static let token = String(repeating: "cd", count: 32)

    /// `total` notifications, at most 20 in flight: every answer is 503, and its resend waits
    /// up to 40 s. With 20, the source has ended when the client shuts down; with 100, it has not.
    @Test(arguments: [20, 100])
    func waitingResendsEndWhenTheClientShutsDown(total: Int) async throws {
        let key = try P256PrivateKey.generate()
        let serverLoops = try EventLoopGroup(loopCount: 1, name: "bulk-shutdown-emulator")
        let emulator = try await Emulator.start(
            EmulatorConfiguration(keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)]),
            loops: serverLoops)
        emulator.faults.add(Fault(action: .respond(status: 503, reason: .serviceUnavailable), selection: .fraction(1)))
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(emulator.port)")
        // The transport starts and stops its own loop: a timer still pending then is dropped.
        let transport = try HTTP2Transport(
            configuration: TransportConfiguration(endpoint: endpoint, maximumConnections: 1))
        let signer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let client = APNsClient(
            endpoint: endpoint, credentials: .token(try ProviderTokenCache(signer: signer)), transport: transport,
            retryPolicy: RetryPolicy(maximumAttempts: 2, baseDelay: .seconds(40), maximumDelay: .seconds(40)))
        let note = try APNs.Notification(
            token: DeviceToken(hex: Self.token), topic: Topic("com.example.app"), payload: Payload.alert(body: "x"))

        let taken = Mutex(0)
        let outcomes = Mutex<[String: Int]>([:])
        let sending = Task {
            await client.sendEach(concurrency: 20) {
                taken.withLock { count in
                    guard count < total else { return nil }
                    count += 1
                    return note
                }
            } onResult: { _, result in
                outcomes.withLock { $0[result.failureLabel, default: 0] += 1 }
            }
        }
        // Every one of the first 20 was answered 503 and waits for its resend (the metrics are
        // the only place that says so: polled).
        while client.metrics.retried < 20 { try await Task.sleep(for: .milliseconds(5)) }
        let shutdownStarted = ContinuousClock.now
        await client.shutdown()
        await sending.value
        #expect(ContinuousClock.now - shutdownStarted < .seconds(20), "the send did not wait for the resend delays")

        let ended = outcomes.withLock { $0 }
        #expect(taken.withLock { $0 } == total, "the source was drained")
        #expect(ended.values.reduce(0, +) == total, "every notification ended exactly once: \(ended)")
        #expect(ended["ok", default: 0] == 0)
        let metrics = client.metrics
        #expect(metrics.succeeded + metrics.failed == total && metrics.inFlight == 0, "\(metrics)")
        await emulator.shutdown()
        await serverLoops.shutdown()
    }
}
