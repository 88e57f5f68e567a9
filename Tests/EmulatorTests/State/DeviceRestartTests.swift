import APNs
import APNsClient
import Emulator
import Keys
import Testing

/// Simulated devices across an emulator restart, over loopback (issue 4): registered, subscribed,
/// pushed to while offline, given a Live Activity token, and another unregistered; then a new
/// emulator on the same store.
@Suite(.timeLimit(.minutes(1)))
struct DeviceRestartTests {
    static let app = "com.example.app"
    static let update = Array(
        #"{"aps":{"event":"update","timestamp":1767225600,"content-state":{"score":"2-1"}}}"#.utf8)

    @Test(arguments: StoreKind.allCases)
    func devicesAndWhatWaitsForThemSurviveARestart(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let key = try P256PrivateKey.generate()
        var device = ""
        var activity = ""
        var gone = ""
        var channel = ""
        let stored = APNsID.random()
        var broadcastID = ""

        try await withDeviceEmulator(strictTokens: true, store: fixture.store, key: key) { harness in
            let phone = try await harness.register()
            let other = try await harness.register()
            device = phone.token
            gone = other.token
            channel = try await harness.client.createChannel(bundleID: Self.app, storagePolicy: .mostRecentMessage)
                .channelID.value
            try await phone.subscribe(channelID: channel)
            let answer = try await harness.push(to: device, collapseID: "score", id: stored)
            #expect((try? answer.get()) != nil, "\(answer)")
            broadcastID = try await harness.client.broadcast(
                Broadcast(
                    bundleID: Self.app, channelID: try ChannelID(channel), payload: EncodedPayload(bytes: Self.update)))
            activity = try await phone.registerToken(.liveActivity)
            try await other.unregister()
            #expect(harness.emulator.devices.storedNotifications(for: device).count == 1)
            phone.close()
            other.close()
        }

        try await withDeviceEmulator(strictTokens: true, store: try fixture.reopened(), key: key) { harness in
            #expect(harness.emulator.devices.deviceCount == 1)
            #expect(!harness.emulator.devices.isOnline(device), "back offline")
            let phone = try SimulatedDevice.attach(token: device, at: harness.endpoint, on: harness.deviceLoop)
            var stream = phone.notifications().makeAsyncIterator()
            let first = try #require(try await stream.next())
            #expect(first.apnsID == stored.value && first.token == device && first.collapseID == "score")
            #expect(first.expiration == nil && first.topic == Self.app && first.channelID == nil)
            #expect(first.payload["aps"]?["alert"]?["body"] == "There")
            let second = try #require(try await stream.next())
            #expect(second.apnsID == broadcastID && second.channelID == channel)
            #expect(second.payload["aps"]?["content-state"]?["score"] == "2-1")

            // The Live Activity token still routes to the device (strict mode knows it).
            let live = APNsID.random()
            let routed = try await harness.push(
                to: activity, topic: Self.app + ".push-type.liveactivity", pushType: .liveactivity,
                payload: .liveActivity(.update, timestamp: 1, contentState: JSONObject()), id: live)
            #expect((try? routed.get()) != nil, "\(routed)")
            let third = try #require(try await stream.next())
            #expect(third.apnsID == live.value && third.token == activity)
            let own = APNsID.random()
            let accepted = try await harness.push(to: device, id: own)
            #expect((try? accepted.get()) != nil, "strict mode knows the device: \(accepted)")
            #expect(try await stream.next()?.apnsID == own.value)

            // The unregistered device still answers 410; an unknown token is still BadDeviceToken.
            guard case .failure(.rejected(let dead)) = try await harness.push(to: gone) else {
                Issue.record("the unregistered device's token was accepted")
                return
            }
            #expect(dead.status == 410 && dead.reason == .unregistered)
            guard case .failure(.rejected(let unknown)) = try await harness.push(to: String(repeating: "ee", count: 32))
            else {
                Issue.record("strict mode accepted an unknown token after the restart")
                return
            }
            #expect(unknown.reason == .badDeviceToken)
            phone.close()
        }
    }
}
