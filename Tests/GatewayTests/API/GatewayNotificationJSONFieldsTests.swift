import APNs
import Gateway
import Testing

/// docs/GATEWAY.md's tables for the notification routes' outputs against their real answers (the
/// check is `GatewayJSONFieldsTests`').
@Suite(.timeLimit(.minutes(1)))
struct GatewayNotificationJSONFieldsTests {
    typealias API = NotificationAPI

    @Test func everyNotificationOutputHasTheDocumentedFields() async throws {
        let page = try GatewayJSONFieldsTests.documented()
        try await GatewayAPIFixture.with(.memory) { gateway in
            let sendAt = GatewayConfiguration.systemMillisecondClock() + 3_600_000
            let id = try await GatewayNotificationReadTests.settledNotification(gateway, over: .http1)
            let scheduled = try await gateway.request(
                "POST", API.path, key: gateway.send, body: API.body(to: #"{"tags":["a"]}"#, #""send-at":\#(sendAt)"#),
                over: .http2)
            GatewayJSONFieldsTests.check(
                "gateway-notification-created", [scheduled.json].compactMap { $0 }, against: page)
            let later = try #require(scheduled.json?["id"]?.stringValue)
            var notifications: [JSONValue] = []
            for path in ["/v1/notifications/\(id)", "/v1/notifications/\(later)"] {
                notifications.append(
                    try #require(try await gateway.request("GET", path, key: gateway.send, over: .http1).json))
            }
            notifications.append(
                try #require(
                    try await gateway.request("DELETE", "/v1/notifications/\(later)", key: gateway.send, over: .http2)
                        .json))
            GatewayJSONFieldsTests.check("gateway-notification", notifications, against: page)
            let pages = [
                try await gateway.request(
                    "GET", "/v1/notifications/\(id)/deliveries?limit=4", key: gateway.send, over: .http1),
                try await gateway.request(
                    "GET", "/v1/notifications/\(id)/deliveries?cursor=4", key: gateway.send, over: .http2),
            ]
            GatewayJSONFieldsTests.check("gateway-deliveries", pages.compactMap(\.json), against: page)
            let lints = [
                try await gateway.request(
                    "POST", "/v1/lint", key: gateway.send, body: #"{"payload":{"aps":{}}}"#, over: .http1),
                try await gateway.request(
                    "POST", "/v1/lint", key: gateway.send, body: #"{"payload":\#(API.alert),"push-type":"alert"}"#,
                    over: .http2),
            ]
            GatewayJSONFieldsTests.check("gateway-lint", lints.compactMap(\.json), against: page)
            let refused = try await gateway.request(
                "POST", API.path, key: gateway.send,
                body: API.body(to: #"{"tags":["a"]}"#, payload: API.alert, #""push-type":"background""#), over: .http1)
            #expect(refused.status == 422)
            GatewayJSONFieldsTests.check("gateway-lint-refusal", [refused.json].compactMap { $0 }, against: page)
        }
    }
}
