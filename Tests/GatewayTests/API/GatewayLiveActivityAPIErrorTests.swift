import APNs
import Gateway
import Testing

/// The Live Activity routes' refusals: each names its field, and stores nothing.
@Suite(.timeLimit(.minutes(2)))
struct GatewayLiveActivityAPIErrorTests {
    typealias Case = GatewayAPIErrorTests.Case

    static let app = GatewayAPIFixture.app
    static let token = String(repeating: "ab", count: 32)
    static let pushToStart = "/v1/apps/\(app)/live-activities/push-to-start/\(token)"
    static let activity = "/v1/apps/\(app)/live-activities/a-1"
    static let pushToStartBody = #"{"attributes-type":"A","user":"alice"}"#
    static let activityBody = #"{"token":"\#(token)","user":"alice"}"#

    static let cases: [Case] = [
        Case(
            name: "push-to-start without a key", method: "PUT", path: pushToStart, key: .none, body: pushToStartBody,
            status: 401, code: "unauthorized", field: "authorization"),
        Case(
            name: "register key lists push-to-start", method: "GET", path: "/v1/apps/\(app)/users/alice/push-to-start",
            key: .register, status: 403, code: "forbidden", field: "authorization"),
        Case(
            name: "register key reads an activity", method: "GET", path: activity, key: .register, status: 403,
            code: "forbidden", field: "authorization"),
        Case(
            name: "activity key of another app", method: "PUT", path: activity, key: .otherAppSend,
            body: activityBody, status: 403, code: "forbidden", field: "authorization"),
        Case(
            name: "push-to-start for an unknown app", method: "PUT",
            path: "/v1/apps/com.example.nope/live-activities/push-to-start/\(token)", key: .admin,
            body: pushToStartBody, status: 404, code: "unknown-app", field: "bundle-id"),
        Case(
            name: "push-to-start token not hex", method: "PUT",
            path: "/v1/apps/\(app)/live-activities/push-to-start/xyz1", key: .admin, body: pushToStartBody,
            status: 400, code: "bad-request", field: "token"),
        Case(
            name: "attributes-type missing", method: "PUT", path: pushToStart, key: .admin, body: #"{"user":"alice"}"#,
            status: 400, code: "bad-request", field: "attributes-type"),
        Case(
            name: "no body: attributes-type missing", method: "PUT", path: pushToStart, key: .admin, status: 400,
            code: "bad-request", field: "attributes-type"),
        Case(
            name: "attributes-type not a string", method: "PUT", path: pushToStart, key: .admin,
            body: #"{"attributes-type":3}"#, status: 400, code: "bad-request", field: "attributes-type"),
        Case(
            name: "attributes-type too long", method: "PUT", path: pushToStart, key: .admin,
            body: #"{"attributes-type":""# + String(repeating: "A", count: 257) + #""}"#, status: 400,
            code: "bad-request", field: "attributes-type"),
        Case(
            name: "push-to-start unknown field", method: "PUT", path: pushToStart, key: .admin,
            body: #"{"attributes-type":"A","attributesType":"A"}"#, status: 400, code: "bad-request",
            field: "attributesType"),
        Case(
            name: "push-to-start environment the app lacks", method: "PUT",
            path: "/v1/apps/\(GatewayAPIFixture.sandboxApp)/live-activities/push-to-start/\(token)", key: .admin,
            body: #"{"attributes-type":"A","environment":"production"}"#, status: 400, code: "bad-request",
            field: "environment"),
        Case(
            name: "push-to-start body not an object", method: "PUT", path: pushToStart, key: .admin, body: "[]",
            status: 400, code: "bad-request", field: "body"),
        Case(
            name: "activity token missing", method: "PUT", path: activity, key: .admin, body: #"{"user":"alice"}"#,
            status: 400, code: "bad-request", field: "token"),
        Case(
            name: "activity token not hex", method: "PUT", path: activity, key: .admin, body: #"{"token":"nothex"}"#,
            status: 400, code: "bad-request", field: "token"),
        Case(
            name: "activity unknown field", method: "PUT", path: activity, key: .admin,
            body: #"{"token":"\#(token)","attributes-type":"A"}"#, status: 400, code: "bad-request",
            field: "attributes-type"),
        Case(
            name: "activity unknown environment", method: "PUT", path: activity, key: .admin,
            body: #"{"token":"\#(token)","environment":"staging"}"#, status: 400, code: "bad-request",
            field: "environment"),
        Case(
            name: "activity id with an encoded slash", method: "PUT", path: "/v1/apps/\(app)/live-activities/a%2Fb",
            key: .admin, body: activityBody, status: 400, code: "bad-request", field: "activity-id"),
        Case(
            name: "activity id too long", method: "PUT",
            path: "/v1/apps/\(app)/live-activities/" + String(repeating: "a", count: 257), key: .admin,
            body: activityBody, status: 400, code: "bad-request", field: "activity-id"),
        Case(
            name: "activity id with a control character", method: "GET", path: "/v1/apps/\(app)/live-activities/a%01",
            key: .admin, status: 400, code: "bad-request", field: "activity-id"),
        Case(
            name: "unknown activity", method: "GET", path: activity, key: .send, status: 404, code: "unknown-activity",
            field: "activity-id"),
        Case(
            name: "unknown push-to-start token", method: "DELETE", path: pushToStart, key: .register, status: 404,
            code: "unknown-push-to-start-token", field: "token"),
        Case(
            name: "push-to-start has no GET", method: "GET", path: pushToStart, key: .admin, status: 405,
            code: "method-not-allowed", field: nil),
    ]

    @Test(arguments: cases, WireProtocol.allCases)
    func aRefusedRequestSaysWhyAndStoresNothing(_ refusal: Case, _ wire: WireProtocol) async throws {
        try await GatewayAPIFixture.with(.memory) { gateway in
            let answer = try await gateway.request(
                refusal.method, refusal.path, key: gateway.secret(refusal.key), body: refusal.body, over: wire)
            #expect(answer.status == refusal.status, "\(answer.output) \(String(describing: answer.json))")
            #expect(answer.errorCode == refusal.code)
            #expect(answer.errorField == refusal.field)
            #expect(answer.json?["error"]?["message"]?.stringValue?.isEmpty == false)
            if refusal.status == 405 { #expect(answer.headers["allow"] == "DELETE, PUT") }
            #expect(try await gateway.store.pushToStartTokens(bundleID: Self.app, user: "alice").isEmpty)
            #expect(try await gateway.store.activityToken(bundleID: Self.app, activityID: "a-1") == nil)
        }
    }

    /// The same refusals from the SQLite store.
    @Test func sqliteRefusesTheSameWay() async throws {
        try await GatewayAPIFixture.with(.sqlite) { gateway in
            let bad = try await gateway.request(
                "PUT", Self.activity, key: gateway.admin, body: #"{"token":"abc"}"#, over: .http2)
            #expect(bad.status == 400 && bad.errorField == "token", "\(bad.output)")
            let missing = try await gateway.request(
                "PUT", Self.pushToStart, key: gateway.register, body: "{}", over: .http1)
            #expect(missing.status == 400 && missing.errorField == "attributes-type", "\(missing.output)")
            #expect(try await gateway.store.activityToken(bundleID: Self.app, activityID: "a-1") == nil)
            #expect(try await gateway.store.pushToStartTokens(bundleID: Self.app, user: "alice").isEmpty)
        }
    }
}

extension GatewayAPIFixture {
    /// The secret of a key of this kind (`bogus`: one no store knows).
    func secret(_ key: GatewayAPIErrorTests.Case.Key) -> String? {
        switch key {
        case .none: nil
        case .bogus: "hk_" + String(repeating: "0", count: 64)
        case .admin: admin
        case .send: send
        case .register: register
        case .otherAppSend: otherAppSend
        }
    }
}
