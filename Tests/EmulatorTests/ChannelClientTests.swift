import APNs
import APNsClient
import Emulator
import HTTP2
import Keys
import Testing

/// APNsClient's channel management and broadcasts against the emulator, over loopback HTTP/2:
/// one custom endpoint serves device pushes, management and broadcasts.
@Suite(.timeLimit(.minutes(1)))
struct ChannelClientTests {
    static let app = "com.example.app"
    static let update = EncodedPayload(
        bytes: Array(#"{"aps":{"event":"update","timestamp":1767225600,"content-state":{"score":2}}}"#.utf8))

    func withClient(_ body: (Emulator, APNsClient) async throws -> Void) async throws {
        try await withDeviceEmulator(bundleIDs: [Self.app], retryPolicy: RetryPolicy()) { harness in
            try await body(harness.emulator, harness.client)
        }
    }

    @Test func createReadListBroadcastDelete() async throws {
        try await withClient { emulator, client in
            let requestID = try APNsID("123e4567-e89b-12d3-a456-426655440000")
            let created = try await client.createChannel(
                bundleID: Self.app, storagePolicy: .mostRecentMessage, requestID: requestID)
            #expect(created.requestID == requestID.value)
            #expect(emulator.channels.policy(bundleID: Self.app, channel: created.channelID) == .mostRecentMessage)

            let description = try await client.readChannel(created.channelID, bundleID: Self.app)
            #expect(description.configuration == ChannelConfiguration(storagePolicy: .mostRecentMessage))
            #expect(try await client.listChannels(bundleID: Self.app) == [created.channelID])

            let sent = try await client.broadcast(
                Broadcast(
                    bundleID: Self.app, channelID: created.channelID, priority: .powerConsiderate,
                    expiration: .at(unixSeconds: 1_767_225_600), payload: Self.update))
            let logged = emulator.log.entries(apnsID: sent)
            #expect(
                logged.count == 1 && logged.first?.status == 200 && logged.first?.channel == created.channelID.value)

            try await client.deleteChannel(created.channelID, bundleID: Self.app)
            #expect(try await client.listChannels(bundleID: Self.app).isEmpty)
        }
    }

    @Test func rejectionsAreTyped() async throws {
        try await withClient { emulator, client in
            let unknown = try ChannelID("dW5rbm93bg==")
            await #expect(throws: APNsClientError.self) { try await client.readChannel(unknown, bundleID: Self.app) }
            do throws(APNsClientError) {
                _ = try await client.broadcast(Broadcast(bundleID: Self.app, channelID: unknown, payload: Self.update))
                Issue.record("a broadcast to an unknown channel was accepted")
            } catch {
                guard case .rejected(let rejection) = error else {
                    Issue.record("expected a rejection, got \(error)")
                    return
                }
                #expect(rejection.status == 400 && rejection.reason == .channelNotRegistered)
                #expect(
                    rejection.apnsID.flatMap { try? APNsID($0) } != nil, "the rejection carries the apns-request-id")
            }
            do throws(APNsClientError) {
                _ = try await client.createChannel(bundleID: "com.other.app", storagePolicy: .noStorage)
                Issue.record("a channel for an app the emulator does not serve was created")
            } catch {
                #expect(error.reason == .topicMismatch)
            }
            #expect(emulator.log.entries().map(\.reason) == ["ChannelNotRegistered"], "only broadcasts are logged")
        }
    }

    @Test func invalidBroadcastsAreNotSent() async throws {
        try await withClient { emulator, client in
            let channel = try ChannelID("dW5rbm93bg==")
            let cases = [
                Broadcast(bundleID: "com.example.app.voip", channelID: channel, payload: Self.update),
                Broadcast(bundleID: Self.app, channelID: channel, priority: .low, payload: Self.update),
                Broadcast(
                    bundleID: Self.app, channelID: channel,
                    payload: EncodedPayload(bytes: Array(repeating: 0x20, count: 5121))),
            ]
            for broadcast in cases {
                await #expect(throws: APNsClientError.self) { try await client.broadcast(broadcast) }
            }
            #expect(emulator.log.totalCount == 0)
        }
    }
}

/// Broadcasts and management follow `broadcastRoutes`, not the device endpoint.
@Suite(.timeLimit(.minutes(1)))
struct BroadcastRoutesTests {
    @Test func routesCarryChannelRequestsAndBroadcasts() async throws {
        let key = try P256PrivateKey.generate()
        let loops = try EventLoopGroup(loopCount: 1, name: "broadcast-routes")
        let emulator = try await Emulator.start(
            EmulatorConfiguration(keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)]),
            loops: loops)
        let served = try APNsEndpoint(url: "http://127.0.0.1:\(emulator.port)")
        // The device endpoint is a closed port: anything sent there fails.
        let nowhere = try APNsEndpoint(url: "http://127.0.0.1:1")
        let routes = BroadcastRoutes(
            broadcast: APNsRoute(
                endpoint: served, transport: try HTTP2Transport(configuration: TransportConfiguration(endpoint: served))
            ),
            management: APNsRoute(
                endpoint: served, transport: try HTTP2Transport(configuration: TransportConfiguration(endpoint: served))
            ))
        let signer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let client = APNsClient(
            endpoint: nowhere, credentials: .token(try ProviderTokenCache(signer: signer)),
            transport: try HTTP2Transport(configuration: TransportConfiguration(endpoint: nowhere)),
            retryPolicy: RetryPolicy(maximumAttempts: 1), broadcastRoutes: routes)
        do {
            let created = try await client.createChannel(bundleID: "com.example.app", storagePolicy: .noStorage)
            _ = try await client.broadcast(
                Broadcast(
                    bundleID: "com.example.app", channelID: created.channelID, payload: ChannelClientTests.update))
            #expect(emulator.log.entries(channel: created.channelID.value).map(\.status) == [200])
        } catch {
            Issue.record("\(error)")
        }
        await client.shutdown()
        await emulator.shutdown()
        await loops.shutdown()
    }
}
