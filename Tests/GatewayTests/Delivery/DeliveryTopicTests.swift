import APNs
import Emulator
import Gateway
import Testing

/// Each kind of recipient goes out with its topic and push type, and a channel as a broadcast,
/// each with the apns-id (or apns-request-id) of its delivery row.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct DeliveryTopicTests {
    static let update = Array(#"{"aps":{"event":"update","timestamp":1767225600,"content-state":{"eta":5}}}"#.utf8)
    static let start = Array(
        #"{"aps":{"event":"start","timestamp":1767225600,"content-state":{},"attributes-type":"Trip","attributes":{}}}"#
            .utf8)

    func send(
        _ harness: DeliveryHarness, _ to: NotificationRequest.Recipients, _ pushType: PushType, _ payload: [UInt8]
    )
        async throws -> [Gateway.Delivery]
    {
        let id = try await harness.create(
            NotificationRequest(bundleID: bundleID, to: to, pushType: pushType, payload: payload))
        harness.engine.wake()
        try await harness.untilFinished(id)
        let rows = try await harness.deliveries(id)
        #expect(rows.count == 1 && rows.allSatisfy { $0.status == .succeeded }, "\(to): \(rows)")
        return rows
    }

    @Test(arguments: StoreKind.allCases)
    func everyKindGoesOutWithItsTopic(kind: StoreKind) async throws {
        try await DeliveryHarness.with(kind) { harness in
            harness.engine.start()
            let tokens = try await harness.register(1..<2)
            let voip = try await send(harness, .tokens(tokens), .voip, Array(#"{"call":"x"}"#.utf8))
            let voipLog = harness.logged(tokens[0])
            #expect(voipLog.map(\.topic) == ["com.example.app.voip"] && voipLog.map(\.pushType) == ["voip"])
            #expect(voipLog.map(\.apnsID) == voip.map(\.apnsID.value))

            let activityToken = try token(2)
            _ = try await harness.store.upsertActivityToken(
                bundleID: bundleID, activityID: "trip-1", token: activityToken, environment: .production, user: "ada",
                now: harness.clock.now)
            let activity = try await send(harness, .activity("trip-1"), .liveactivity, Self.update)
            let activityLog = harness.logged(activityToken)
            #expect(activityLog.map(\.topic) == ["com.example.app.push-type.liveactivity"])
            #expect(activityLog.map(\.apnsID) == activity.map(\.apnsID.value))

            let startToken = try token(3)
            _ = try await harness.store.upsertPushToStartToken(
                bundleID: bundleID, token: startToken, environment: .production, user: "ada", attributesType: "Trip",
                now: harness.clock.now)
            _ = try await send(harness, .pushToStart(users: ["ada"], attributesType: "Trip"), .liveactivity, Self.start)
            #expect(harness.logged(startToken).map(\.topic) == ["com.example.app.push-type.liveactivity"])

            let channel = try #require(harness.emulator.channels.create(bundleID: bundleID, policy: .noStorage))
            let broadcast = try await send(harness, .channel(channel), .liveactivity, Self.update)
            let broadcastLog = harness.emulator.log.entries(channel: channel.value)
            #expect(broadcastLog.map(\.status) == [200])
            #expect(broadcastLog.map(\.apnsID) == broadcast.map(\.apnsID.value), "apns-request-id is the row's apns-id")
        }
    }
}
