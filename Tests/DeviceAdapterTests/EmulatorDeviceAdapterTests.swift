import APNs
import APNsClient
import DeviceAdapter
import DeviceModel
import Emulator
import HTTP2
import Keys
import Testing

/// The adapter as a Swift user would use it: a model device joins an in-process emulator (h2c on
/// loopback), a provider client pushes to the token the model's app registered with, and the model decides.
@Suite(.timeLimit(.minutes(1)))
struct EmulatorDeviceAdapterTests {
    /// An emulator, a client that pushes to it, a model device on the system clock with one app, and the adapter.
    struct Harness {
        let emulator: Emulator
        let client: APNsClient
        let device: Device
        let app: InstalledApp
        let adapter: EmulatorDeviceAdapter
        /// The loop the adapter runs on, for another adapter in the same test.
        let loop: EventLoop

        func push(_ json: String, to token: String, topic: String = "com.example.app", pushType: PushType = .alert)
            async throws
        {
            let notification = APNs.Notification(
                token: try DeviceToken(hex: token), topic: try Topic(topic), pushType: pushType,
                collapseID: try CollapseID("n1"), apnsID: .random(),
                payload: try Payload(json: JSONValue(parsing: Array(json.utf8))))
            let result = await client.result(for: notification)
            guard case .success = result else {
                Issue.record("the emulator refused the push: \(result)")
                return
            }
        }
    }

    func withHarness(_ body: (Harness) async throws -> Void) async throws {
        let loops = try EventLoopGroup(loopCount: 2, name: "adapter-test")
        let key = try P256PrivateKey.generate()
        let emulator = try await Emulator.start(
            EmulatorConfiguration(keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)]),
            loops: loops)
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(emulator.port)")
        let transport = try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint))
        let client = APNsClient(
            endpoint: endpoint,
            credentials: .token(
                try ProviderTokenCache(
                    signer: try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ"))),
            transport: transport, retryPolicy: RetryPolicy(maximumAttempts: 1))
        let device = Device(clock: SystemClock())
        let app = device.install(AppConfiguration(bundleID: "com.example.app"))
        let adapter = EmulatorDeviceAdapter(
            device: device, endpoint: .init(host: "127.0.0.1", port: emulator.port), loop: loops.loops[1])
        var failure: (any Error)?
        do {
            try await body(
                Harness(
                    emulator: emulator, client: client, device: device, app: app, adapter: adapter,
                    loop: loops.loops[1]))
        } catch {
            failure = error
        }
        adapter.close()
        await transport.shutdown()
        await emulator.shutdown()
        await loops.shutdown()
        if let failure { throw failure }
    }

    @Test("the app's token is the emulator's, and a push to it reaches the model and is presented")
    func pushReachesTheModel() async throws {
        try await withHarness { harness in
            try await harness.adapter.connect()
            harness.app.launch()
            harness.app.notificationCenter.requestAuthorization(options: [.alert])
            harness.app.registerForRemoteNotifications()
            harness.app.moveToBackground()
            let token = try #require(harness.app.deviceTokenHex)
            #expect(harness.adapter.simulatedDevice(for: "com.example.app")?.token == token)

            try await harness.push(#"{"aps":{"alert":{"title":"Hello","body":"from the emulator"}}}"#, to: token)
            try await harness.adapter.receive(count: 1, timeout: 30)
            let presented = try #require(harness.app.presentations.last)
            #expect(presented.notification.request.identifier == "n1")
            #expect(presented.notification.request.content.body == "from the emulator")
        }
    }

    @Test("a Live Activity started by push gets an update token the emulator routes; an older update is dropped")
    func liveActivityThroughTheEmulator() async throws {
        try await withHarness { harness in
            try await harness.adapter.connect(pushToStartTypes: 1)
            harness.app.launch()
            let pushToStart = Hex.encode(harness.app.pushToStartToken(forAttributesType: "Delivery"))
            harness.app.moveToBackground()
            let topic = "com.example.app.push-type.liveactivity"
            try await harness.push(
                #"{"aps":{"event":"start","timestamp":100,"attributes-type":"Delivery","attributes":{},"content-state":{"eta":"1"},"alert":{"title":"Go"}}}"#,
                to: pushToStart, topic: topic, pushType: .liveactivity)
            try await harness.adapter.receive(count: 1, timeout: 30)
            let activity = try #require(harness.app.activities.first)
            let token = try #require(activity.pushTokenHex)
            try await harness.push(
                #"{"aps":{"event":"update","timestamp":200,"content-state":{"eta":"2"}}}"#, to: token, topic: topic,
                pushType: .liveactivity)
            try await harness.push(
                #"{"aps":{"event":"update","timestamp":150,"content-state":{"eta":"old"}}}"#, to: token, topic: topic,
                pushType: .liveactivity)
            try await harness.adapter.receive(count: 2, timeout: 30)
            #expect(activity.contentState["eta"] == "2")
            #expect(harness.device.timeline.entries(decidedBy: .activityOrder).count == 1)
        }
    }

    @Test("LA-BROADCAST through the emulator: the device subscribes to the activity's channel; a broadcast updates it")
    func broadcastThroughTheEmulator() async throws {
        try await withHarness { harness in
            try await harness.adapter.connect()
            let channel = try await harness.client.createChannel(
                bundleID: "com.example.app", storagePolicy: .mostRecentMessage
            ).channelID
            harness.app.launch()
            let activity = try harness.app.requestActivity(
                attributesType: "Score", attributes: JSONObject(), contentState: JSONObject(),
                pushType: .channel(channel.value))
            try await harness.adapter.subscribeChannels()
            let update = #"{"aps":{"event":"update","timestamp":100,"content-state":{"score":"1-0"}}}"#
            _ = try await harness.client.broadcast(
                Broadcast(
                    bundleID: "com.example.app", channelID: channel,
                    payload: try Payload(json: JSONValue(parsing: Array(update.utf8))).encoded()))
            try await harness.adapter.receive(count: 1, timeout: 30)
            #expect(activity.contentState["score"] == "1-0")
            let applied = harness.device.timeline.entries(decidedBy: .activityUpdate).last?.message ?? ""
            #expect(applied.contains("broadcast on channel \(channel.value)"), "\(applied)")
        }
    }

    @Test("a rotated token (backup restore) is the emulator's too: a push to it arrives, one to the old is dropped")
    func rotatedTokenReachesTheModel() async throws {
        try await withHarness { harness in
            try await harness.adapter.connect()
            harness.app.launch()
            harness.app.notificationCenter.requestAuthorization(options: [.alert])
            harness.app.registerForRemoteNotifications()
            harness.app.moveToBackground()
            let old = try #require(harness.app.deviceTokenHex)
            var told: [String] = []
            harness.app.delegate.didRegisterForRemoteNotifications = { told.append(Hex.encode($0)) }
            harness.device.rotateTokens(.backupRestore)
            let new = try #require(harness.app.deviceTokenHex)
            #expect(new != old && told == [new])
            try await harness.adapter.followRotatedTokens()
            #expect(harness.adapter.simulatedDevice(for: "com.example.app")?.token == new)

            try await harness.push(#"{"aps":{"alert":{"body":"to the new token"}}}"#, to: new)
            try await harness.push(#"{"aps":{"alert":{"body":"to the old token"}}}"#, to: old)
            try await harness.adapter.receive(count: 2, timeout: 30)
            #expect(harness.app.presentations.map(\.notification.request.content.body) == ["to the new token"])
            #expect(harness.device.timeline.entries(decidedBy: .tokenNotCurrent).count == 1)
        }
    }

    @Test("a profile's rotate step: the new token is registered on the emulator and a push to it arrives")
    func profileRotateStep() async throws {
        let profile = try DeviceProfile(
            json: Array(
                #"""
                {"app": {"bundle-id": "com.example.app"}, "script": [
                  {"launch": {}}, {"request-authorization": ["alert"]}, {"register": {}}, {"background": {}},
                  {"rotate": {"reason": "backup-restore"}}, {"wait-for-push": {"count": 1, "timeout": 30}}]}
                """#.utf8))
        try await withHarness { harness in
            let run = ProfileRun(profile, clock: SystemClock())
            let adapter = EmulatorDeviceAdapter(
                device: run.device, endpoint: .init(host: "127.0.0.1", port: harness.emulator.port),
                loop: harness.loop)
            defer { adapter.close() }
            try await adapter.connect()
            #expect(try run.runUntilPause() == .pushes(count: 1, timeout: 30))
            let rotations = run.device.timeline.entries(decidedBy: .registrationRotation)
            let token = try #require(run.app.deviceTokenHex)
            #expect(rotations.count == 1 && rotations.first?.message.contains(token) == true)
            try await harness.push(#"{"aps":{"alert":{"body":"after the restore"}}}"#, to: token)
            try await adapter.receive(count: 1, timeout: 30)
            #expect(run.app.presentations.last?.notification.request.content.body == "after the restore")
        }
    }

    @Test("receive times out when nothing arrives, saying how many did")
    func receiveTimesOut() async throws {
        try await withHarness { harness in
            try await harness.adapter.connect()
            await #expect(throws: EmulatorDeviceAdapterError.timedOut(received: 0, of: 1)) {
                try await harness.adapter.receive(count: 1, timeout: 0.2)
            }
        }
    }
}
