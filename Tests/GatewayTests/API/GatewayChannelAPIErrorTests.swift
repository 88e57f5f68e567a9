import APNs
import APNsClient
import Gateway
import Testing

/// The channel routes' refusals, the gateway's own and APNs's, each with its status and code.
@Suite(.timeLimit(.minutes(2)))
struct GatewayChannelAPIErrorTests {
    typealias Case = GatewayAPIErrorTests.Case

    static let app = GatewayAPIFixture.app
    static let channels = "/v1/apps/\(app)/channels"
    /// Valid base64 that names no channel.
    static let unknownChannel = channels + "/dW5rbm93bg%3D%3D"

    /// Refused before any APNs request (the emulators then hold no channel).
    static let cases: [Case] = [
        Case(
            name: "send key creates", method: "POST", path: channels, key: .send,
            body: #"{"message-storage-policy":1}"#,
            status: 403, code: "forbidden", field: "authorization"),
        Case(
            name: "register key lists", method: "GET", path: channels, key: .register, status: 403, code: "forbidden",
            field: "authorization"),
        Case(
            name: "send key deletes", method: "DELETE", path: unknownChannel, key: .send, status: 403,
            code: "forbidden", field: "authorization"),
        Case(
            name: "no key", method: "GET", path: channels, key: .none, status: 401, code: "unauthorized",
            field: "authorization"),
        Case(
            name: "policy missing", method: "POST", path: channels, key: .admin, body: #"{"environment":"sandbox"}"#,
            status: 400, code: "bad-request", field: "message-storage-policy"),
        Case(
            name: "no body", method: "POST", path: channels, key: .admin, status: 400, code: "bad-request",
            field: "message-storage-policy"),
        Case(
            name: "policy 2", method: "POST", path: channels, key: .admin, body: #"{"message-storage-policy":2}"#,
            status: 400, code: "bad-request", field: "message-storage-policy"),
        Case(
            name: "policy as a string", method: "POST", path: channels, key: .admin,
            body: #"{"message-storage-policy":"1"}"#, status: 400, code: "bad-request",
            field: "message-storage-policy"),
        Case(
            name: "push-type is not asked for", method: "POST", path: channels, key: .admin,
            body: #"{"message-storage-policy":1,"push-type":"LiveActivity"}"#, status: 400, code: "bad-request",
            field: "push-type"),
        Case(
            name: "environment the app lacks", method: "POST",
            path: "/v1/apps/\(GatewayAPIFixture.sandboxApp)/channels", key: .admin,
            body: #"{"message-storage-policy":1,"environment":"production"}"#, status: 400, code: "bad-request",
            field: "environment"),
        Case(
            name: "unknown environment in the query", method: "GET", path: channels + "?environment=staging",
            key: .admin, status: 400, code: "bad-request", field: "environment"),
        Case(
            name: "misspelt query parameter", method: "GET", path: channels + "?enviroment=sandbox", key: .admin,
            status: 400, code: "bad-request", field: "enviroment"),
        Case(
            name: "query parameter twice", method: "GET", path: channels + "?environment=sandbox&environment=sandbox",
            key: .admin, status: 400, code: "bad-request", field: "environment"),
        Case(
            name: "query on create", method: "POST", path: channels + "?environment=sandbox", key: .admin,
            body: #"{"message-storage-policy":1}"#, status: 400, code: "bad-request", field: "environment"),
        Case(
            name: "channel id not base64", method: "GET", path: channels + "/not-base64!", key: .admin, status: 400,
            code: "bad-request", field: "channel-id"),
        Case(
            name: "unknown channel read", method: "GET", path: unknownChannel, key: .send, status: 404,
            code: "unknown-channel", field: "channel-id"),
        Case(
            name: "unknown channel deleted", method: "DELETE", path: unknownChannel + "?environment=sandbox",
            key: .admin, status: 404, code: "unknown-channel", field: "channel-id"),
    ]

    @Test(arguments: cases, WireProtocol.allCases)
    func aRefusedRequestSaysWhy(_ refusal: Case, _ wire: WireProtocol) async throws {
        try await GatewayChannelFixture.with(.memory) { fixture in
            let gateway = fixture.gateway
            let answer = try await gateway.request(
                refusal.method, refusal.path, key: gateway.secret(refusal.key), body: refusal.body, over: wire)
            #expect(answer.status == refusal.status, "\(answer.output) \(String(describing: answer.json))")
            #expect(answer.errorCode == refusal.code)
            #expect(answer.errorField == refusal.field)
            #expect(answer.json?["error"]?["message"]?.stringValue?.isEmpty == false)
            for emulator in [fixture.sandbox, fixture.production] {
                #expect(emulator.channels.channels(bundleID: Self.app).isEmpty)
            }
        }
    }

    /// No client for the app in that environment: 409 naming `environment`, on every channel route.
    @Test(arguments: WireProtocol.allCases)
    func anEnvironmentWithoutAClientIsNamed(_ wire: WireProtocol) async throws {
        let sandboxOnly: [APNsConnections.Key: GatewayChannelFixture.Target] = [
            .init(bundleID: Self.app, environment: .sandbox): .sandboxEmulator
        ]
        try await GatewayChannelFixture.with(.memory, targets: sandboxOnly) { fixture in
            let gateway = fixture.gateway
            let requests: [(String, String, String?)] = [
                ("POST", Self.channels, #"{"message-storage-policy":1}"#),
                ("GET", Self.channels, nil),
                ("GET", Self.channels + "?environment=production", nil),
                ("GET", Self.unknownChannel, nil),
                ("DELETE", Self.unknownChannel + "?environment=production", nil),
            ]
            for (method, path, body) in requests {
                let answer = try await gateway.request(method, path, key: gateway.admin, body: body, over: wire)
                #expect(answer.status == 409, "\(method) \(path): \(answer.output)")
                #expect(answer.errorCode == "no-apns-client" && answer.errorField == "environment")
                #expect(answer.json?["error"]?["message"]?.stringValue?.contains("production") == true)
            }
            // The environment that has a client works.
            let listed = try await gateway.request(
                "GET", Self.channels + "?environment=sandbox", key: gateway.send, over: wire)
            #expect(listed.status == 200 && listed.json == ["channels": []], "\(listed.output)")
        }
    }

    /// A gateway started without APNs clients (the default) answers 409 too.
    @Test func aGatewayWithoutClientsAnswers409() async throws {
        try await GatewayAPIFixture.with(.sqlite) { gateway in
            let answer = try await gateway.request(
                "POST", Self.channels, key: gateway.admin, body: #"{"message-storage-policy":0}"#, over: .http2)
            #expect(answer.status == 409 && answer.errorCode == "no-apns-client", "\(answer.output)")
        }
    }

    /// APNs refusing is 502 `apns-error` with APNs's reason; APNs not answering is 503.
    @Test(arguments: WireProtocol.allCases)
    func apnsFailuresAreTheGatewaysErrors(_ wire: WireProtocol) async throws {
        let targets: [APNsConnections.Key: GatewayChannelFixture.Target] = [
            .init(bundleID: Self.app, environment: .sandbox): .refusingEmulator,
            .init(bundleID: Self.app, environment: .production): .closedPort,
        ]
        try await GatewayChannelFixture.with(.memory, targets: targets) { fixture in
            let gateway = fixture.gateway
            let requests: [(String, String, String?)] = [
                ("POST", Self.channels, #"{"message-storage-policy":1,"environment":"sandbox"}"#),
                ("GET", Self.channels + "?environment=sandbox", nil),
                ("GET", Self.unknownChannel + "?environment=sandbox", nil),
                ("DELETE", Self.unknownChannel + "?environment=sandbox", nil),
            ]
            for (method, path, body) in requests {
                let refused = try await gateway.request(method, path, key: gateway.admin, body: body, over: wire)
                #expect(
                    refused.status == 502 && refused.errorCode == "apns-error", "\(method) \(path): \(refused.output)")
                #expect(refused.json?["error"]?["reason"]?.stringValue == "TopicMismatch")
                #expect(refused.errorField == nil)
            }
            let unreachable = [
                ("POST", Self.channels, #"{"message-storage-policy":1}"#),
                ("GET", Self.channels + "?environment=production", nil),
                ("DELETE", Self.unknownChannel, nil),
            ]
            for (method, path, body) in unreachable {
                let answer = try await gateway.request(method, path, key: gateway.admin, body: body, over: wire)
                #expect(answer.status == 503 && answer.errorCode == "apns-unavailable", "\(answer.output)")
                #expect(answer.json?["error"]?["reason"] == nil)
            }
        }
    }
}
