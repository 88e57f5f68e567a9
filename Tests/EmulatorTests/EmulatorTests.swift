import APNs
import APNsClient
import Emulator
import HTTP2
import HeraldTestSupport
import Keys
import Synchronization
import Testing

/// The emulator over real loopback HTTP/2, driven by Herald's own client.
@Suite(.timeLimit(.minutes(1)))
struct EmulatorTests {
    static let token = String(repeating: "ab", count: 32)
    let key: P256PrivateKey
    let otherKey: P256PrivateKey

    init() throws {
        key = try P256PrivateKey.generate()
        otherKey = try P256PrivateKey.generate()
    }

    /// An emulator trusting `key` as ABC123DEFG/DEF123GHIJ and `otherKey` as ZZZ999ZZZZ/DEF123GHIJ.
    func withEmulator(
        _ body: (Emulator, APNsEndpoint, HTTP2Transport) async throws -> Void
    ) async throws {
        let loops = try EventLoopGroup(loopCount: 1, name: "emulator-test")
        let emulator = try await Emulator.start(
            EmulatorConfiguration(keys: [
                .init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey),
                .init(keyID: "ZZZ999ZZZZ", teamID: "DEF123GHIJ", publicKey: otherKey.publicKey),
            ], bundleIDs: ["com.example.app"]),
            loops: loops)
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(emulator.port)")
        let transport = try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint))
        do {
            try await body(emulator, endpoint, transport)
        } catch {
            await transport.shutdown()
            await emulator.shutdown()
            await loops.shutdown()
            throw error
        }
        await transport.shutdown()
        await emulator.shutdown()
        await loops.shutdown()
    }

    func notification(_ token: String = EmulatorTests.token, topic: String = "com.example.app") throws -> APNs.Notification {
        APNs.Notification(token: try DeviceToken(hex: token), topic: try Topic(topic), payload: Payload.alert(title: "Hi", body: "There"))
    }

    func request(_ notification: APNs.Notification, _ endpoint: APNsEndpoint, token: ProviderToken?) -> APNsRequest {
        APNsRequest(notification: notification, authority: endpoint.authority, authorization: token?.authorization)
    }

    func reason(_ result: Result<RawResponse, APNsClientError>) -> String? {
        guard case .success(let raw) = result, raw.status != 200 else { return nil }
        return (try? JSONValue(parsing: raw.body))?["reason"]?.stringValue
    }

    @Test func acceptsAValidProviderTokenAndLogsTheDelivery() async throws {
        try await withEmulator { emulator, endpoint, transport in
            let signer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
            let client = APNsClient(endpoint: endpoint, credentials: .token(try ProviderTokenCache(signer: signer)), transport: transport)
            let response = try await client.send(try notification())
            #expect(response.uniqueID != nil, "the sandbox answers with apns-unique-id")
            let logged = emulator.log.entries(apnsID: response.apnsID)
            #expect(logged.count == 1)
            #expect(logged.first?.status == 200 && logged.first?.token == Self.token && logged.first?.topic == "com.example.app")
        }
    }

    @Test func providerTokenRejections() async throws {
        try await withEmulator { _, endpoint, transport in
            let now = Int(ProviderTokenCache.systemClock())
            let note = try notification()
            // No authorization header at all.
            #expect(reason(await transport.perform(request(note, endpoint, token: nil), timeout: .seconds(5))) == "MissingProviderToken")
            // Signed by a key the emulator does not have under that id.
            let forged = try ProviderTokenSigner(key: try P256PrivateKey.generate(), keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
            #expect(reason(await transport.perform(request(note, endpoint, token: try forged.sign(issuedAt: now)), timeout: .seconds(5)))
                == "InvalidProviderToken")
            // Issued more than an hour ago.
            let signer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
            #expect(reason(await transport.perform(request(note, endpoint, token: try signer.sign(issuedAt: now - 3700)), timeout: .seconds(5)))
                == "ExpiredProviderToken")
        }
    }

    @Test func aNewTokenWithinTwentyMinutesIsTooManyUpdates() async throws {
        try await withEmulator { _, endpoint, transport in
            let now = Int(ProviderTokenCache.systemClock())
            let signer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
            let note = try notification()
            #expect(reason(await transport.perform(request(note, endpoint, token: try signer.sign(issuedAt: now - 60)), timeout: .seconds(5))) == nil)
            #expect(reason(await transport.perform(request(note, endpoint, token: try signer.sign(issuedAt: now)), timeout: .seconds(5)))
                == "TooManyProviderTokenUpdates")
        }
    }

    @Test func aTokenFromAnUnrelatedKeyOnTheSameConnection() async throws {
        try await withEmulator { _, endpoint, transport in
            let now = Int(ProviderTokenCache.systemClock())
            let first = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
            let second = try ProviderTokenSigner(key: otherKey, keyID: "ZZZ999ZZZZ", teamID: "DEF123GHIJ")
            let note = try notification()
            #expect(reason(await transport.perform(request(note, endpoint, token: try first.sign(issuedAt: now)), timeout: .seconds(5))) == nil)
            #expect(reason(await transport.perform(request(note, endpoint, token: try second.sign(issuedAt: now)), timeout: .seconds(5)))
                == "UnrelatedKeyIdInToken")
        }
    }

    @Test func streamLimitStartsAtOneAndRisesAfterAValidToken() async throws {
        try await withEmulator { _, endpoint, transport in
            let signer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
            let client = APNsClient(endpoint: endpoint, credentials: .token(try ProviderTokenCache(signer: signer)), transport: transport)
            let note = try notification()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<300 { group.addTask { _ = try? await client.send(note) } }
            }
            #expect(client.metrics.succeeded == 300)
        }
    }

    @Test func headerAndPayloadChecksAnswerWithApplesReasons() async throws {
        try await withEmulator { _, endpoint, transport in
            let signer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
            let token = try signer.sign(issuedAt: Int(ProviderTokenCache.systemClock()))
            #expect(reason(await transport.perform(request(try notification(topic: "com.example.other"), endpoint, token: token), timeout: .seconds(5)))
                == "TopicDisallowed")
            var voipTopic = try notification(topic: "com.example.app.voip")
            voipTopic.pushType = .alert
            #expect(reason(await transport.perform(request(voipTopic, endpoint, token: token), timeout: .seconds(5))) == "BadTopic")
            var big = try notification()
            big.payload = EncodedPayload(bytes: Array(#"{"aps":{"alert":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: 4100) + Array(#""}}"#.utf8))
            #expect(reason(await transport.perform(request(big, endpoint, token: token), timeout: .seconds(5))) == "PayloadTooLarge")
        }
    }

    @Test func controlAPIListsDeliveries() async throws {
        try await withEmulator { emulator, endpoint, transport in
            let signer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
            let client = APNsClient(endpoint: endpoint, credentials: .token(try ProviderTokenCache(signer: signer)), transport: transport)
            _ = try await client.send(try notification())
            // The control API answers JSON on the same listener.
            let listing = try await ControlClient.get(port: emulator.port, path: "/control/v1/deliveries")
            let deliveries = try JSONValue(parsing: listing)["deliveries"]?.arrayValue ?? []
            #expect(deliveries.count == 1)
            #expect(deliveries.first?["status"] == 200)
            #expect(deliveries.first?["payload"]?["aps"]?["alert"]?["title"] == "Hi")
        }
    }
}

/// Control-API requests over h2c with Herald's own connection (the shared test helper `sendOne`).
enum ControlClient {
    static func get(port: Int, path: String) async throws -> [UInt8] {
        try await request(method: "GET", port: port, path: path).body
    }

    static func request(method: String, port: Int, path: String, body: [UInt8] = []) async throws -> HTTP2Response {
        let loop = try EventLoop(name: "control")
        let result = await sendOne(on: loop, .init(host: "127.0.0.1", port: port, tls: nil), path: path, method: method, body: body)
        await loop.shutdown()
        return try result.get()
    }
}

@Suite(.timeLimit(.minutes(1)))
struct UnregisterTests {
    /// A token unregistered through the control API answers 410 with the millisecond timestamp,
    /// and the client reports it for pruning.
    @Test func unregisteredTokenAnswers410AndIsPruned() async throws {
        let key = try P256PrivateKey.generate()
        let loops = try EventLoopGroup(loopCount: 1, name: "unregister")
        let emulator = try await Emulator.start(
            EmulatorConfiguration(keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)]),
            loops: loops, clock: { 1_767_225_600 })
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(emulator.port)")
        let pruned = Mutex<[APNsClient.PrunableToken]>([])
        let signer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let client = APNsClient(
            endpoint: endpoint, credentials: .token(try ProviderTokenCache(signer: signer, clock: { 1_767_225_600 })),
            transport: try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint)),
            onPrunableToken: { token in pruned.withLock { $0.append(token) } })
        let token = String(repeating: "cd", count: 32)
        let note = APNs.Notification(token: try DeviceToken(hex: token), topic: try Topic("com.example.app"), payload: Payload.alert(body: "x"))
        _ = try await client.send(note)

        let answer = try await ControlClient.request(method: "POST", port: emulator.port, path: "/control/v1/devices/\(token)/unregister")
        #expect(answer.status == 204)
        do {
            _ = try await client.send(note)
            Issue.record("an unregistered token must be refused")
        } catch {
            guard case .rejected(let rejection) = error else {
                Issue.record("expected a rejection, got \(error)")
                return
            }
            #expect(rejection.status == 410 && rejection.reason == .unregistered)
            #expect(rejection.timestampMilliseconds == 1_767_225_600_000)
        }
        #expect(pruned.withLock { $0.map(\.token.hex) } == [token])
        #expect(pruned.withLock { $0.first?.invalidSinceMilliseconds } == 1_767_225_600_000)
        await client.shutdown()
        await emulator.shutdown()
        await loops.shutdown()
    }
}

@Suite(.timeLimit(.minutes(1)))
struct RateLimitTests {
    @Test func pushesOverThePerTokenLimitGet429() async throws {
        let key = try P256PrivateKey.generate()
        let loops = try EventLoopGroup(loopCount: 1, name: "rate-limit")
        let emulator = try await Emulator.start(
            EmulatorConfiguration(
                keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)], perTokenRateLimit: 2),
            loops: loops, clock: { 1_767_225_600 })
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(emulator.port)")
        let signer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let client = APNsClient(
            endpoint: endpoint, credentials: .token(try ProviderTokenCache(signer: signer, clock: { 1_767_225_600 })),
            transport: try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint)), retryPolicy: .none)
        let busy = APNs.Notification(
            token: try DeviceToken(hex: String(repeating: "ab", count: 32)), topic: try Topic("com.example.app"),
            payload: Payload.alert(body: "x"))
        var other = busy
        other.token = try DeviceToken(hex: String(repeating: "cd", count: 32))
        _ = try await client.send(busy)
        _ = try await client.send(busy)
        do {
            _ = try await client.send(busy)
            Issue.record("the third push in the same second is over the limit")
        } catch {
            #expect(error.reason == .tooManyRequests)
            #expect(error.reason?.status == 429)
        }
        _ = try await client.send(other)  // the limit is per token
        await client.shutdown()
        await emulator.shutdown()
        await loops.shutdown()
    }
}
