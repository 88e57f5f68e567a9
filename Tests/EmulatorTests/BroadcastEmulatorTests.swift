import APNs
import APNsClient
import Emulator
import HTTP2
import Keys
import Synchronization
import Testing

/// Channel management and broadcasts on the emulator, over real loopback HTTP/2 requests.
@Suite(.timeLimit(.minutes(1)))
struct BroadcastEmulatorTests {
    static let app = "com.example.app"
    static let id = "123e4567-e89b-12d3-a456-426655440000"
    static let update = Array(#"{"aps":{"event":"update","timestamp":1767225600,"content-state":{"score":1}}}"#.utf8)
    let key: P256PrivateKey

    init() throws {
        key = try P256PrivateKey.generate()
    }

    /// An emulator for com.example.app and com.quiet.app (broadcast enabled for the first only),
    /// a transport to it and a provider token.
    func withEmulator(
        channelLimit: Int = 10_000,
        _ body: (Emulator, HTTP2Transport, ProviderToken, APNsEndpoint) async throws -> Void
    ) async throws {
        let loops = try EventLoopGroup(loopCount: 1, name: "broadcast-test")
        var configuration = EmulatorConfiguration(
            keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)],
            bundleIDs: [Self.app, "com.quiet.app"])
        configuration.channelLimitPerApp = channelLimit
        configuration.broadcastPolicy.broadcastEnabledBundleIDs = [Self.app]
        let emulator = try await Emulator.start(configuration, loops: loops)
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(emulator.port)")
        let transport = try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint))
        let signer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let token = try ProviderTokenCache(signer: signer).token()
        do {
            try await body(emulator, transport, token, endpoint)
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

    func send(
        _ transport: HTTP2Transport, _ endpoint: APNsEndpoint, _ method: String, _ path: String,
        authorization: String?, headers: [(name: String, value: String)], body: [UInt8] = []
    ) async throws -> RawResponse {
        let request = APNsRequest(
            method: method, path: path, authority: endpoint.authority, authorization: authorization, headers: headers,
            body: body, apnsID: Self.id)
        return try await transport.perform(request, timeout: .seconds(10)).get()
    }

    static func reason(_ raw: RawResponse) -> String? {
        (try? JSONValue(parsing: raw.body))?["reason"]?.stringValue
    }

    @Test func channelLifecycle() async throws {
        try await withEmulator { emulator, transport, token, endpoint in
            let auth = token.authorization
            let path = BroadcastPaths.channels(bundleID: Self.app)
            let created = try await send(
                transport, endpoint, "POST", path, authorization: auth, headers: [("apns-request-id", Self.id)],
                body: Array(#"{"message-storage-policy":0,"push-type":"LiveActivity"}"#.utf8))
            #expect(created.status == 201)
            #expect(created.requestID == Self.id, "the request id is echoed")
            let channel = try ChannelID(try #require(created.channelID))
            #expect(emulator.channels.policy(bundleID: Self.app, channel: channel) == .noStorage)

            let read = try await send(
                transport, endpoint, "GET", path, authorization: auth, headers: [("apns-channel-id", channel.value)])
            #expect(read.status == 200)
            #expect(read.requestID.flatMap { try? APNsID($0) } != nil, "a generated request id")
            let description = try ChannelConfiguration(json: read.body)
            #expect(description == ChannelConfiguration(storagePolicy: .noStorage))

            let list = try await send(
                transport, endpoint, "GET", BroadcastPaths.allChannels(bundleID: Self.app), authorization: auth,
                headers: [])
            #expect(list.status == 200)
            #expect((try JSONValue(parsing: list.body))["channels"] == .array([.string(channel.value)]))

            let deleted = try await send(
                transport, endpoint, "DELETE", path, authorization: auth, headers: [("apns-channel-id", channel.value)])
            #expect(deleted.status == 204 && deleted.requestID != nil)
            let gone = try await send(
                transport, endpoint, "GET", path, authorization: auth, headers: [("apns-channel-id", channel.value)])
            #expect(gone.status == 400 && Self.reason(gone) == "ChannelNotRegistered")
        }
    }

    /// Which channel a case's request names.
    enum ChannelChoice: Sendable {
        case none
        case registered(MessageStoragePolicy)
        case literal(String)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let label: String
        var method = "POST"
        var path: String
        var authorized = true
        var headers: [(name: String, value: String)] = []
        var channel = ChannelChoice.registered(.mostRecentMessage)
        var body: [UInt8] = BroadcastEmulatorTests.update
        var channelLimit = 10_000
        let reason: String
        let status: Int
        var testDescription: String { label }
    }

    static let broadcastPath = BroadcastPaths.broadcast(bundleID: app)
    static let channelsPath = BroadcastPaths.channels(bundleID: app)
    static let liveActivity = [(name: "apns-push-type", value: "liveactivity")]
    static let createBody = Array(#"{"message-storage-policy":1,"push-type":"LiveActivity"}"#.utf8)

    static let cases: [Case] = [
        // Channel management
        Case(
            label: "create without a provider token", path: channelsPath, authorized: false, channel: .none,
            body: createBody,
            reason: "MissingProviderToken", status: 403),
        Case(
            label: "create with a bad request id", path: channelsPath, headers: [("apns-request-id", "x")],
            channel: .none,
            body: createBody, reason: "BadMessageId", status: 400),
        Case(
            label: "channels path without a bundle id", path: "/1/apps//channels", channel: .none, reason: "BadPath",
            status: 404),
        Case(label: "PATCH /channels", method: "PATCH", path: channelsPath, reason: "MethodNotAllowed", status: 405),
        Case(
            label: "channels for a suffixed bundle id", path: "/1/apps/com.example.app.voip/channels", channel: .none,
            body: createBody, reason: "TopicDisallowed", status: 400),
        Case(
            label: "channels for an app not configured", path: "/1/apps/com.other.app/channels", channel: .none,
            body: createBody, reason: "TopicMismatch", status: 403),
        Case(
            label: "channels for an app without broadcast", path: "/1/apps/com.quiet.app/channels", channel: .none,
            body: createBody, reason: "FeatureNotEnabled", status: 400),
        Case(
            label: "read without a channel id", method: "GET", path: channelsPath, channel: .none,
            reason: "MissingChannelId", status: 400),
        Case(
            label: "read a malformed channel id", method: "GET", path: channelsPath, channel: .literal("abc"),
            reason: "BadChannelId", status: 400),
        Case(
            label: "read an unknown channel", method: "GET", path: channelsPath, channel: .literal("dW5rbm93bg=="),
            reason: "ChannelNotRegistered", status: 400),
        Case(
            label: "delete an unknown channel", method: "DELETE", path: channelsPath, channel: .literal("dW5rbm93bg=="),
            reason: "ChannelNotRegistered", status: 400),
        Case(
            label: "create with an empty body", path: channelsPath, channel: .none, body: [], reason: "PayloadEmpty",
            status: 400),
        Case(
            label: "create with a non-JSON body", path: channelsPath, channel: .none, body: Array("x".utf8),
            reason: "BadRequestPayload", status: 400),
        Case(
            label: "create without a push type", path: channelsPath, channel: .none,
            body: Array(#"{"message-storage-policy":1}"#.utf8), reason: "MissingPushType", status: 400),
        Case(
            label: "create for alerts", path: channelsPath, channel: .none,
            body: Array(#"{"message-storage-policy":1,"push-type":"Alert"}"#.utf8), reason: "InvalidPushType",
            status: 400),
        Case(
            label: "create with policy 2", path: channelsPath, channel: .none,
            body: Array(#"{"message-storage-policy":2,"push-type":"LiveActivity"}"#.utf8), reason: "BadRequestParams",
            status: 400),
        Case(
            label: "create beyond the limit", path: channelsPath, channel: .none, body: createBody, channelLimit: 0,
            reason: "CannotCreateChannelConfig", status: 400),
        // Broadcasts
        Case(
            label: "broadcast without a provider token", path: broadcastPath, authorized: false, headers: liveActivity,
            reason: "MissingProviderToken", status: 403),
        Case(
            label: "broadcast with a bad request id", path: broadcastPath,
            headers: liveActivity + [("apns-request-id", "nope")],
            reason: "BadMessageId", status: 400),
        Case(
            label: "GET a broadcast", method: "GET", path: broadcastPath, headers: liveActivity,
            reason: "MethodNotAllowed", status: 405),
        Case(
            label: "broadcast path with extra segment", path: broadcastPath + "/x", headers: liveActivity,
            reason: "BadPath", status: 404),
        Case(
            label: "broadcast to a suffixed bundle id", path: broadcastPath + ".push-type.liveactivity",
            headers: liveActivity,
            reason: "TopicDisallowed", status: 400),
        Case(
            label: "broadcast to an app not configured", path: "/4/broadcasts/apps/com.other.app",
            headers: liveActivity,
            reason: "TopicMismatch", status: 403),
        Case(label: "broadcast without a push type", path: broadcastPath, reason: "MissingPushType", status: 400),
        Case(
            label: "broadcast an alert", path: broadcastPath, headers: [("apns-push-type", "alert")],
            reason: "InvalidPushType", status: 400),
        Case(
            label: "broadcast without a channel", path: broadcastPath, headers: liveActivity, channel: .none,
            reason: "MissingChannelId", status: 400),
        Case(
            label: "broadcast to a malformed channel", path: broadcastPath, headers: liveActivity,
            channel: .literal("%%"),
            reason: "BadChannelId", status: 400),
        Case(
            label: "broadcast at priority 1", path: broadcastPath, headers: liveActivity + [("apns-priority", "1")],
            reason: "BadPriority", status: 400),
        Case(
            label: "broadcast with a malformed expiration", path: broadcastPath,
            headers: liveActivity + [("apns-expiration", "x")],
            reason: "BadExpirationDate", status: 400),
        Case(
            label: "broadcast to an unknown channel", path: broadcastPath, headers: liveActivity,
            channel: .literal("dW5rbm93bg=="),
            reason: "ChannelNotRegistered", status: 400),
        Case(
            label: "broadcast stored on a no-storage channel", path: broadcastPath,
            headers: liveActivity + [("apns-expiration", "1767225600")], channel: .registered(.noStorage),
            reason: "BadExpirationDate", status: 400),
        Case(
            label: "broadcast an empty payload", path: broadcastPath, headers: liveActivity, body: [],
            reason: "PayloadEmpty", status: 400),
        Case(
            label: "broadcast 5121 bytes", path: broadcastPath, headers: liveActivity,
            body: Array(#"{"aps":{"event":"end","timestamp":1},"pad":""#.utf8)
                + Array(repeating: 0x78, count: 5121 - 46) + Array(#""}"#.utf8),
            reason: "PayloadTooLarge", status: 413),
        Case(
            label: "broadcast a start", path: broadcastPath, headers: liveActivity,
            body: Array(#"{"aps":{"event":"start","timestamp":1,"content-state":{}}}"#.utf8),
            reason: "BadRequestPayload", status: 400),
    ]

    @Test(arguments: cases)
    func reasonOverHTTP2(_ testCase: Case) async throws {
        try await withEmulator(channelLimit: testCase.channelLimit) { emulator, transport, token, endpoint in
            var headers = testCase.headers
            switch testCase.channel {
            case .none: break
            case .literal(let text): headers.append(("apns-channel-id", text))
            case .registered(let policy):
                let channel = try #require(emulator.channels.create(bundleID: Self.app, policy: policy))
                headers.append(("apns-channel-id", channel.value))
            }
            let raw = try await send(
                transport, endpoint, testCase.method, testCase.path,
                authorization: testCase.authorized ? token.authorization : nil,
                headers: headers, body: testCase.body)
            #expect(raw.status == testCase.status)
            #expect(Self.reason(raw) == testCase.reason)
            #expect(raw.requestID != nil, "every answer carries apns-request-id")
            #expect(raw.apnsID == nil, "broadcast answers carry no apns-id")
        }
    }

    @Test func acceptedBroadcastsReachTheHookAndTheLog() async throws {
        try await withEmulator { emulator, transport, token, endpoint in
            let (stream, continuation) = AsyncStream.makeStream(of: AcceptedBroadcast.self)
            emulator.onBroadcast { continuation.yield($0) }
            let channel = try #require(emulator.channels.create(bundleID: Self.app, policy: .noStorage))
            let raw = try await send(
                transport, endpoint, "POST", Self.broadcastPath, authorization: token.authorization,
                headers: Self.liveActivity + [
                    ("apns-channel-id", channel.value), ("apns-priority", "5"), ("apns-request-id", Self.id),
                ],
                body: Self.update)
            #expect(raw.status == 200 && raw.requestID == Self.id)
            var iterator = stream.makeAsyncIterator()
            let accepted = try #require(await iterator.next())
            #expect(
                accepted
                    == AcceptedBroadcast(
                        bundleID: Self.app, channelID: channel, storagePolicy: .noStorage, priority: .powerConsiderate,
                        expiration: .immediately, requestID: Self.id, payload: Self.update))
            let logged = emulator.log.entries(channel: channel.value)
            #expect(logged.count == 1)
            #expect(logged.first?.status == 200 && logged.first?.apnsID == Self.id && logged.first?.topic == Self.app)
            #expect(
                logged.first?.token == nil && logged.first?.pushType == "liveactivity" && logged.first?.priority == 5)
        }
    }

    @Test func rejectedBroadcastsAreLoggedAndSkipTheHook() async throws {
        try await withEmulator { emulator, transport, token, endpoint in
            let calls = Atomic<Int>(0)
            emulator.onBroadcast { _ in calls.add(1, ordering: .relaxed) }
            let raw = try await send(
                transport, endpoint, "POST", Self.broadcastPath, authorization: token.authorization,
                headers: Self.liveActivity + [("apns-channel-id", "dW5rbm93bg==")], body: Self.update)
            #expect(raw.status == 400)
            let logged = emulator.log.entries(channel: "dW5rbm93bg==")
            #expect(logged.map(\.reason) == ["ChannelNotRegistered"])
            #expect(logged.first?.apnsID == raw.requestID)
            #expect(calls.load(ordering: .relaxed) == 0)
        }
    }
}
