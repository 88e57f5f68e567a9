import APNs
import APNsClient
import Emulator
import Foundation
import Gateway
import HTTP2
import Keys
import Synchronization
import Testing

/// A clock the test moves by hand: milliseconds since 1970, from `Clock.start`.
final class ManualClock: Sendable {
    private let value = Mutex(Clock.start)

    var now: Int { value.withLock { $0 } }

    func advance(by milliseconds: Int) {
        value.withLock { $0 += milliseconds }
    }

    func set(_ milliseconds: Int) {
        value.withLock { $0 = milliseconds }
    }
}

/// The real emulator on loopback (h2c, or TLS with a test CA), a gateway store of one kind, APNs
/// clients for the app's production environment, and a delivery engine on a manual clock whose
/// events the test awaits.
final class DeliveryHarness: Sendable {
    let storeFixture: GatewayStoreFixture
    let emulator: Emulator
    let loops: EventLoopGroup
    let connections: APNsConnections
    let clock = ManualClock()
    let metrics = GatewayMetrics()
    let engine: DeliveryEngine
    let events: AsyncStream<DeliveryEngineEvent>
    /// The client the engine sends through (the tests send with it too, as a dead worker would).
    let client: APNsClient
    /// Another client for the same emulator (a restarted gateway's).
    let makeClient: @Sendable () throws -> APNsClient
    let engineConfiguration: DeliveryEngineConfiguration
    /// Feeds `events`: give it to another engine to await that one's events.
    let observer: @Sendable (DeliveryEngineEvent) -> Void

    var store: any GatewayStore { storeFixture.store }

    static let backoff = DeliveryBackoff(maximumAttempts: 3, base: 1_000, maximum: 10_000)

    private init(
        storeFixture: GatewayStoreFixture, emulator: Emulator, loops: EventLoopGroup,
        makeClient: @escaping @Sendable () throws -> APNsClient, configure: (inout DeliveryEngineConfiguration) -> Void
    ) throws {
        self.storeFixture = storeFixture
        self.emulator = emulator
        self.loops = loops
        self.makeClient = makeClient
        let client = try makeClient()
        self.client = client
        connections = APNsConnections([APNsConnections.Key(bundleID: bundleID, environment: .production): client])
        let (events, continuation) = AsyncStream.makeStream(of: DeliveryEngineEvent.self)
        self.events = events
        observer = { continuation.yield($0) }
        let clock = self.clock
        var configuration = DeliveryEngineConfiguration(
            claimBatchSize: 50, leaseMilliseconds: 600_000, sendConcurrency: 100, backoff: Self.backoff,
            idlePollInterval: .milliseconds(50),
            queueDepthInterval: .zero, claimer: "test-engine", clock: { clock.now })
        configure(&configuration)
        engineConfiguration = configuration
        engine = DeliveryEngine(
            store: storeFixture.store, connections: connections, configuration: configuration, metrics: metrics,
            observer: observer)
    }

    /// Runs `body` with a harness; shuts everything down after, whatever happens.
    static func with(
        _ kind: StoreKind, tls: Bool = false, configure: (inout DeliveryEngineConfiguration) -> Void = { _ in },
        _ body: (DeliveryHarness) async throws -> Void
    ) async throws {
        let storeFixture = try GatewayStoreFixture(kind)
        defer { storeFixture.remove() }
        let loops = try EventLoopGroup(loopCount: 2, name: "delivery-test")
        let key = try P256PrivateKey.generate()
        let configuration = EmulatorConfiguration(
            keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)], sandbox: true)
        var serverTLS: TLSContext?
        var caFile: String?
        if tls {
            let authority = try CertificateAuthority.generate(commonName: "Delivery Test CA")
            let (certificate, leafKey) = try authority.issue(
                commonName: "localhost", subjectAlternativeNames: ["localhost", "127.0.0.1"])
            serverTLS = try TLSContext(.server(certificateChain: [certificate], privateKey: leafKey))
            let path = storeFixture.directory + "/ca.pem"
            try authority.certificate.pem().write(toFile: path, atomically: true, encoding: .utf8)
            caFile = path
        }
        let emulator = try await Emulator.start(configuration, tls: serverTLS, loops: loops)
        let endpoint = try APNsEndpoint(url: "\(tls ? "https://localhost" : "http://127.0.0.1"):\(emulator.port)")
        let signer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        var transportConfiguration = TransportConfiguration(endpoint: endpoint, caFile: caFile)
        // One loop thread per client: the delivery suites run beside many others.
        transportConfiguration.loopCount = 1
        let makeClient: @Sendable () throws -> APNsClient = { [transportConfiguration] in
            APNsClient(
                endpoint: endpoint, credentials: .token(try ProviderTokenCache(signer: signer)),
                transport: try HTTP2Transport(configuration: transportConfiguration), retryPolicy: .none)
        }
        let harness = try DeliveryHarness(
            storeFixture: storeFixture, emulator: emulator, loops: loops, makeClient: makeClient, configure: configure)
        var failure: (any Error)?
        do {
            try await body(harness)
        } catch {
            failure = error
        }
        await harness.engine.shutdown()
        await harness.connections.shutdown()
        await emulator.shutdown()
        await loops.shutdown()
        if let failure { throw failure }
    }

    /// Waits, event by event, until `condition` holds (checked first, then after every event).
    /// Throws when the events end first (the test's time limit cancelled it), so that the checks
    /// after it do not run on a state the engine never reached.
    func until(_ condition: () async throws -> Bool) async throws {
        if try await condition() { return }
        for await event in events {
            if case .storeFailed(let error) = event { Issue.record("the store failed: \(error)") }
            if try await condition() { return }
        }
        throw CancellationError()
    }

    /// Waits for the next scheduling round that began at or after the clock's present reading.
    func nextRound() async throws {
        let now = clock.now
        for await event in events {
            if case .scheduled(let at, _, _) = event, at >= now { return }
        }
        throw CancellationError()
    }

    /// Waits until the notification is done (or cancelled).
    func untilFinished(_ id: NotificationID) async throws {
        try await until {
            let state = try await store.notification(id: id)?.state
            return state == .done || state == .cancelled
        }
    }

    /// Waits until the notification is done, moving the clock on by `step` after every event
    /// while it is not (retries wait for the queue's backoff on this clock).
    func untilFinished(_ id: NotificationID, advancingClockBy step: Int) async throws {
        try await until {
            guard try await store.notification(id: id)?.state == .done else {
                clock.advance(by: step)
                return false
            }
            return true
        }
    }

    /// Every delivery row of the notification.
    func deliveries(_ id: NotificationID) async throws -> [Gateway.Delivery] {
        var rows: [Gateway.Delivery] = []
        var cursor: Int?
        repeat {
            let page = try await store.deliveries(notificationID: id, after: cursor, limit: 1_000)
            rows += page.deliveries
            cursor = page.nextCursor
        } while cursor != nil
        return rows
    }

    /// The emulator's log entries for this token, oldest first.
    func logged(_ token: DeviceToken) -> [EmulatorDelivery] {
        emulator.log.entries(token: token.hex)
    }

    /// Creates a notification at the clock's reading (expanded by the engine, not here).
    func create(_ request: NotificationRequest) async throws -> NotificationID {
        let id = UUID().uuidString.lowercased()
        _ = try await store.createNotification(request, id: id, now: clock.now)
        return id
    }

    /// Registers `count` devices with the tags at the clock's reading; returns their tokens.
    func register(
        _ numbers: Range<Int>, environment: Environment = .production, user: String? = nil, tags: [String] = []
    )
        async throws -> [DeviceToken]
    {
        var tokens: [DeviceToken] = []
        for n in numbers {
            _ = try await store.upsertDevice(
                try registration(n, environment: environment, user: user, tags: tags), now: clock.now)
            tokens.append(try token(n))
        }
        return tokens
    }
}
