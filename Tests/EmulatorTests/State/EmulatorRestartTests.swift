import APNs
import APNsClient
import Emulator
import HTTP2
import Keys
import Testing

/// An emulator started on a store, stopped, and started again on the same store: the delivery log,
/// its total, the 410s and the channels are still there (issue 4).
@Suite(.timeLimit(.minutes(1)))
struct EmulatorRestartTests {
    static let app = "com.example.app"
    static let now = 1_767_225_600

    /// Runs `body` against an emulator on `store`, with a client for it; shuts both down afterwards.
    func withEmulator(
        _ store: any EmulatorStore, key: P256PrivateKey, _ body: (Emulator, APNsClient) async throws -> Void
    ) async throws {
        let loops = try EventLoopGroup(loopCount: 1, name: "restart")
        let emulator = try await Emulator.start(
            EmulatorConfiguration(
                keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)],
                bundleIDs: [Self.app]),
            store: store, loops: loops, clock: { Self.now })
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(emulator.port)")
        let signer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let client = APNsClient(
            endpoint: endpoint, credentials: .token(try ProviderTokenCache(signer: signer, clock: { Self.now })),
            transport: try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint)), retryPolicy: .none
        )
        var failure: (any Error)?
        do {
            try await body(emulator, client)
        } catch {
            failure = error
        }
        await client.shutdown()
        await emulator.shutdown()
        await loops.shutdown()
        if let failure { throw failure }
    }

    func note(_ token: String) throws -> APNs.Notification {
        APNs.Notification(
            token: try DeviceToken(hex: token), topic: try Topic(Self.app), payload: Payload.alert(body: "x"))
    }

    @Test(arguments: StoreKind.allCases)
    func theLogThe410AndTheChannelSurviveARestart(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let key = try P256PrivateKey.generate()
        let live = String(repeating: "aa", count: 32)
        let dead = String(repeating: "dd", count: 32)
        var channel: ChannelID?
        var before: [JSONValue] = []

        try await withEmulator(fixture.store, key: key) { emulator, client in
            _ = try await client.send(try note(live))
            _ = try await client.send(try note(dead))
            let answer = try await ControlClient.request(
                method: "POST", port: emulator.port, path: "/control/v1/devices/\(dead)/unregister")
            #expect(answer.status == 204)
            channel = try await client.createChannel(bundleID: Self.app, storagePolicy: .mostRecentMessage).channelID
            let listing = try JSONValue(
                parsing: try await ControlClient.get(port: emulator.port, path: "/control/v1/deliveries"))
            before = listing["deliveries"]?.arrayValue ?? []
            #expect(before.count == 2)
        }

        let created = try #require(channel)
        try await withEmulator(try fixture.reopened(), key: key) { emulator, client in
            let listing = try JSONValue(
                parsing: try await ControlClient.get(port: emulator.port, path: "/control/v1/deliveries"))
            #expect(listing["deliveries"]?.arrayValue == before, "the log, every field")
            #expect(listing["total"] == 2)

            let result = await client.result(for: try note(dead))
            guard case .failure(.rejected(let rejection)) = result else {
                Issue.record("an unregistered token must still answer 410, got \(result)")
                return
            }
            #expect(rejection.status == 410 && rejection.reason == .unregistered)
            #expect(rejection.timestampMilliseconds == Self.now * 1000, "the time it was unregistered")
            _ = try await client.send(try note(live))  // a success; a rejection throws

            #expect(try await client.listChannels(bundleID: Self.app) == [created])
            let read = try await client.readChannel(created, bundleID: Self.app)
            #expect(read.configuration.storagePolicy == .mostRecentMessage)
            let another = try await client.createChannel(bundleID: Self.app, storagePolicy: .noStorage).channelID
            #expect(another != created)
            #expect(emulator.log.totalCount == 4)
        }
        #expect(try fixture.reopened().loadDeliveries(newest: 10).total == 4)
        #expect(try fixture.reopened().issuedChannelIDs().count == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func statsShowTheStoreAndItsWrites(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        try await withEmulator(fixture.store, key: try P256PrivateKey.generate()) { emulator, client in
            _ = try await client.send(try note(String(repeating: "aa", count: 32)))
            await emulator.flushStore()
            let stats = try JSONValue(
                parsing: try await ControlClient.get(port: emulator.port, path: "/control/v1/stats"))
            let storage = stats["storage"]
            #expect(storage?["kind"] == .string(kind.rawValue))
            #expect(storage?["written"] == 1)
            #expect(storage?["pending"] == 0)
            #expect(storage?["dropped"] == 0)
            #expect(storage?["errors"] == 0)
            #expect((storage?["path"] != nil) == (kind == .sqlite))
        }
    }
}
