import APNs
import APNsClient
import Emulator
import HTTP2
import Keys

/// An emulator with a key, a provider client that pushes to it, and a loop for simulated devices.
struct DeviceHarness {
    let emulator: Emulator
    let client: APNsClient
    let deviceLoop: EventLoop
    let key: P256PrivateKey

    var endpoint: SimulatedDevice.Endpoint { .init(host: "127.0.0.1", port: emulator.port) }

    func register(_ topic: String = "com.example.app", _ environment: DeviceEnvironment? = nil) async throws
        -> SimulatedDevice
    {
        try await SimulatedDevice.register(at: endpoint, topic: topic, environment: environment, on: deviceLoop)
    }

    /// Sends an alert (or `payload`) to `token`; the emulator's answer as a result.
    @discardableResult
    func push(
        to token: String, topic: String = "com.example.app", pushType: PushType = .alert, collapseID: String? = nil,
        expiration: Expiration? = nil, payload: Payload = .alert(title: "Hi", body: "There"), id: APNsID = .random()
    ) async throws -> Result<APNsResponse, APNsClientError> {
        let notification = APNs.Notification(
            token: try DeviceToken(hex: token), topic: try Topic(topic), pushType: pushType, expiration: expiration,
            collapseID: try collapseID.map { try CollapseID($0) }, apnsID: id, payload: payload)
        return await client.result(for: notification)
    }
}

/// Runs `body` against a fresh emulator (h2c on loopback), its state kept in `store` when given;
/// everything is shut down afterwards.
func withDeviceEmulator(
    strictTokens: Bool = false, sandbox: Bool = true, store: (any EmulatorStore)? = nil, key: P256PrivateKey? = nil,
    bundleIDs: Set<String> = [], retryPolicy: RetryPolicy = RetryPolicy(maximumAttempts: 1),
    _ body: (DeviceHarness) async throws -> Void
) async throws {
    let loops = try EventLoopGroup(loopCount: 2, name: "device-test")
    let key = try key ?? P256PrivateKey.generate()
    var configuration = EmulatorConfiguration(
        keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)], bundleIDs: bundleIDs,
        sandbox: sandbox)
    configuration.strictTokens = strictTokens
    let emulator: Emulator
    if let store {
        emulator = try await Emulator.start(configuration, store: store, loops: loops)
    } else {
        emulator = try await Emulator.start(configuration, loops: loops)
    }
    let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(emulator.port)")
    let transport = try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint))
    let signer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
    let client = APNsClient(
        endpoint: endpoint, credentials: .token(try ProviderTokenCache(signer: signer)), transport: transport,
        retryPolicy: retryPolicy)
    let harness = DeviceHarness(emulator: emulator, client: client, deviceLoop: loops.loops[1], key: key)
    var failure: (any Error)?
    do {
        try await body(harness)
    } catch {
        failure = error
    }
    await transport.shutdown()
    await emulator.shutdown()
    await loops.shutdown()
    if let failure { throw failure }
}
