import APNs
import APNsClient
import Emulator
import Testing

/// Broadcasts sent through the provider API (APNsClient over HTTP/2) reach subscribed simulated
/// devices: at once when they listen, and (policy 1) when they come back.
@Suite(.timeLimit(.minutes(1)))
struct BroadcastToDeviceTests {
    static let update = Array(#"{"aps":{"event":"update","timestamp":1767225600,"content-state":{"score":"2-1"}}}"#.utf8)

    @Test func aBroadcastReachesAListeningSubscriber() async throws {
        try await withDeviceEmulator { harness in
            let channel = try await harness.client.createChannel(bundleID: "com.example.app", storagePolicy: .noStorage)
            let device = try await harness.register()
            try await device.subscribe(channelID: channel.channelID.value)
            var stream = device.notifications().makeAsyncIterator()
            await harness.emulator.devices.waitForPresence(device.token, online: true)
            let requestID = try await harness.client.broadcast(Broadcast(
                bundleID: "com.example.app", channelID: channel.channelID, expiration: .immediately,
                payload: EncodedPayload(bytes: Self.update)))
            let note = try #require(try await stream.next())
            #expect(note.channelID == channel.channelID.value)
            #expect(note.apnsID == requestID)
            #expect(note.payload["aps"]?["content-state"]?["score"] == "2-1")
            device.close()
        }
    }

    @Test func aStoringChannelKeepsTheLatestForAnOfflineSubscriber() async throws {
        try await withDeviceEmulator { harness in
            let channel = try await harness.client.createChannel(
                bundleID: "com.example.app", storagePolicy: .mostRecentMessage)
            let device = try await harness.register()
            try await device.subscribe(channelID: channel.channelID.value)
            // The device is offline: the second broadcast replaces the first.
            for score in ["1-0", "2-0"] {
                let payload = Array(#"{"aps":{"event":"update","timestamp":1,"content-state":{"score":"\#(score)"}}}"#.utf8)
                _ = try await harness.client.broadcast(Broadcast(
                    bundleID: "com.example.app", channelID: channel.channelID, payload: EncodedPayload(bytes: payload)))
            }
            var stream = device.notifications().makeAsyncIterator()
            let note = try #require(try await stream.next())
            #expect(note.payload["aps"]?["content-state"]?["score"] == "2-0")
            device.close()
        }
    }
}
