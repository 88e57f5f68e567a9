import APNs
import Gateway
import Testing

/// `GET /v1/apps/{bundle-id}/live-activities` and `GET /v1/apps/{bundle-id}/push-to-start`: the app's
/// Live Activity tokens page by page, over HTTP/1.1 and HTTP/2; their JSON against docs/GATEWAY.md.
@Suite(.timeLimit(.minutes(3)))
struct GatewayLiveActivityListRouteTests {
    @Test(arguments: WireProtocol.allCases)
    func anAppsActivitiesAndPushToStartTokensPageByPage(_ wire: WireProtocol) async throws {
        try await GatewayAPIFixture.with(.sqlite) { gateway in
            let app = "/v1/apps/\(GatewayAPIFixture.app)"
            for n in 1...3 {
                let activity = try await gateway.request(
                    "PUT", "\(app)/live-activities/race-\(n)", key: gateway.register,
                    body: #"{"token":"\#(try token(n).hex)","user":"ada"}"#, over: wire)
                #expect(activity.status == 200, "\(activity.output)")
                let pushToStart = try await gateway.request(
                    "PUT", "\(app)/live-activities/push-to-start/\(try token(10 + n).hex)", key: gateway.register,
                    body: #"{"attributes-type":"Race","user":"u\#(n)"}"#, over: wire)
                #expect(pushToStart.status == 200, "\(pushToStart.output)")
            }
            let first = try await gateway.request(
                "GET", "\(app)/live-activities?limit=2", key: gateway.send, over: wire)
            #expect(first.status == 200, "\(first.output)")
            #expect(
                first.json?["activities"]?.arrayValue?.map { $0["activity-id"]?.stringValue } == ["race-1", "race-2"])
            let cursor = try #require(first.json?["next-cursor"]?.stringValue)
            let second = try await gateway.request(
                "GET", "\(app)/live-activities?limit=2&cursor=\(cursor)", key: gateway.send, over: wire)
            #expect(second.json?["activities"]?.arrayValue?.map { $0["activity-id"]?.stringValue } == ["race-3"])
            #expect(second.json?["next-cursor"]?.isNull == true)
            let documented = try GatewayJSONFieldsTests.documented()
            GatewayJSONFieldsTests.check(
                "gateway-activities", [first.json, second.json].compactMap { $0 }, against: documented)

            let tokens = try await gateway.request("GET", "\(app)/push-to-start?limit=2", key: gateway.send, over: wire)
            #expect(tokens.status == 200, "\(tokens.output)")
            #expect(
                tokens.json?["push-to-start-tokens"]?.arrayValue?.map { $0["user"]?.stringValue } == ["u1", "u2"])
            let next = try #require(tokens.json?["next-cursor"]?.stringValue)
            let rest = try await gateway.request(
                "GET", "\(app)/push-to-start?cursor=\(next)", key: gateway.send, over: wire)
            #expect(rest.json?["push-to-start-tokens"]?.arrayValue?.map { $0["user"]?.stringValue } == ["u3"])
            GatewayJSONFieldsTests.check(
                "gateway-push-to-start-tokens", [tokens.json, rest.json].compactMap { $0 }, against: documented)

            let badCursor = try await gateway.request(
                "GET", "\(app)/push-to-start?cursor=x", key: gateway.send, over: wire)
            #expect(badCursor.status == 400 && badCursor.errorField == "cursor", "\(badCursor.output)")
            let badLimit = try await gateway.request(
                "GET", "\(app)/live-activities?limit=0", key: gateway.send, over: wire)
            #expect(badLimit.status == 400 && badLimit.errorField == "limit")
            let unknown = try await gateway.request(
                "GET", "\(app)/live-activities?user=ada", key: gateway.send, over: wire)
            #expect(unknown.status == 400 && unknown.errorField == "user")
            let register = try await gateway.request("GET", "\(app)/push-to-start", key: gateway.register, over: wire)
            #expect(register.status == 403)
            let other = try await gateway.request(
                "GET", "\(app)/live-activities", key: gateway.otherAppSend, over: wire)
            #expect(other.status == 403)
        }
    }
}
