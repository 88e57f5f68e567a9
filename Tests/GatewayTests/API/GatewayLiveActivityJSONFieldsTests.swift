import APNs
import Gateway
import Testing

/// docs/GATEWAY.md's tables for the Live Activity and channel outputs against real answers.
@Suite(.timeLimit(.minutes(1)))
struct GatewayLiveActivityJSONFieldsTests {
    @Test func liveActivityAndChannelOutputsHaveTheDocumentedFields() async throws {
        let page = try GatewayJSONFieldsTests.documented()
        let targets: [APNsConnections.Key: GatewayChannelFixture.Target] = [
            .init(bundleID: GatewayAPIFixture.app, environment: .sandbox): .sandboxEmulator,
            .init(bundleID: GatewayAPIFixture.app, environment: .production): .refusingEmulator,
        ]
        try await GatewayChannelFixture.with(.memory, targets: targets) { fixture in
            let gateway = fixture.gateway
            let apps = "/v1/apps/\(GatewayAPIFixture.app)"
            let token = String(repeating: "0a", count: 32)
            let pushToStart = try await gateway.request(
                "PUT", apps + "/live-activities/push-to-start/" + token, key: gateway.register,
                body: #"{"attributes-type":"A","user":"u"}"#, over: .http1)
            let bare = try await gateway.request(
                "PUT", apps + "/live-activities/push-to-start/" + String(repeating: "0b", count: 32),
                key: gateway.register, body: #"{"attributes-type":"A","environment":"sandbox"}"#, over: .http2)
            GatewayJSONFieldsTests.check(
                "gateway-push-to-start-token", [pushToStart.json, bare.json].compactMap { $0 }, against: page)
            let listed = try await gateway.request(
                "GET", apps + "/users/u/push-to-start", key: gateway.send, over: .http2)
            #expect(listed.json?["push-to-start-tokens"]?.arrayValue?.count == 1)
            GatewayJSONFieldsTests.check("gateway-push-to-start-tokens", [listed.json].compactMap { $0 }, against: page)

            let activity = try await gateway.request(
                "PUT", apps + "/live-activities/a1", key: gateway.register, body: #"{"token":"\#(token)","user":"u"}"#,
                over: .http1)
            let read = try await gateway.request("GET", apps + "/live-activities/a1", key: gateway.send, over: .http2)
            GatewayJSONFieldsTests.check(
                "gateway-activity", [activity.json, read.json].compactMap { $0 }, against: page)

            let created = try await gateway.request(
                "POST", apps + "/channels", key: gateway.admin,
                body: #"{"message-storage-policy":1,"environment":"sandbox"}"#, over: .http1)
            let id = created.json?["channel-id"]?.stringValue ?? ""
            let channel = try await gateway.request(
                "GET", apps + "/channels/" + id.pathSegmentEncoded + "?environment=sandbox", key: gateway.send,
                over: .http2)
            GatewayJSONFieldsTests.check(
                "gateway-channel", [created.json, channel.json].compactMap { $0 }, against: page)
            let channels = try await gateway.request(
                "GET", apps + "/channels?environment=sandbox", key: gateway.send, over: .http1)
            #expect(channels.json?["channels"]?.arrayValue?.count == 1)
            GatewayJSONFieldsTests.check("gateway-channels", [channels.json].compactMap { $0 }, against: page)

            // `error.reason`: APNs (production here) refusing.
            let refused = try await gateway.request(
                "GET", apps + "/channels?environment=production", key: gateway.send, over: .http1)
            #expect(refused.json?["error"]?["reason"] != nil, "\(refused.output)")
            GatewayJSONFieldsTests.check("gateway-error", [refused.json].compactMap { $0 }, against: page)
        }
    }
}
