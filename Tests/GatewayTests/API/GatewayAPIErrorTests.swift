import APNs
import Gateway
import Testing

/// Every refusal has its status and `{"error":{"code","message","field"}}`, and stores nothing.
@Suite(.timeLimit(.minutes(2)))
struct GatewayAPIErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        enum Key: Sendable { case none, bogus, admin, send, register, otherAppSend }
        let name: String
        let method: String
        let path: String
        let key: Key
        var body: String? = nil
        let status: Int
        let code: String
        let field: String?

        var testDescription: String { name }
    }

    static let app = GatewayAPIFixture.app
    static let token = String(repeating: "ab", count: 32)
    static let device = "/v1/apps/\(app)/devices/\(token)"

    static let cases: [Case] = [
        Case(
            name: "no key", method: "PUT", path: device, key: .none, status: 401, code: "unauthorized",
            field: "authorization"),
        Case(
            name: "unknown key", method: "PUT", path: device, key: .bogus, status: 401, code: "unauthorized",
            field: "authorization"),
        Case(
            name: "register key reads", method: "GET", path: device, key: .register, status: 403, code: "forbidden",
            field: "authorization"),
        Case(
            name: "register key lists", method: "GET", path: "/v1/apps/\(app)/users/u/devices", key: .register,
            status: 403, code: "forbidden", field: "authorization"),
        Case(
            name: "key of another app", method: "PUT", path: device, key: .otherAppSend, status: 403,
            code: "forbidden", field: "authorization"),
        Case(
            name: "unknown app", method: "PUT", path: "/v1/apps/com.example.nope/devices/\(token)", key: .admin,
            status: 404, code: "unknown-app", field: "bundle-id"),
        Case(
            name: "unknown path", method: "GET", path: "/v1/apps/\(app)/gadgets", key: .admin, status: 404,
            code: "unknown-path", field: nil),
        Case(
            name: "trailing slash", method: "GET", path: device + "/", key: .admin, status: 404,
            code: "unknown-path", field: nil),
        Case(
            name: "wrong method", method: "POST", path: device, key: .admin, status: 405,
            code: "method-not-allowed", field: nil),
        Case(
            name: "bad path encoding", method: "GET", path: "/v1/apps/\(app)/devices/%zz", key: .admin,
            status: 400, code: "bad-request", field: "path"),
        Case(
            name: "token not hex", method: "PUT", path: "/v1/apps/\(app)/devices/xyz1", key: .admin,
            status: 400, code: "bad-request", field: "token"),
        Case(
            name: "token odd length", method: "GET", path: "/v1/apps/\(app)/devices/abc", key: .admin,
            status: 400, code: "bad-request", field: "token"),
        Case(
            name: "body not JSON", method: "PUT", path: device, key: .admin, body: "{user", status: 400,
            code: "bad-request", field: "body"),
        Case(
            name: "body not an object", method: "PUT", path: device, key: .admin, body: "[1]", status: 400,
            code: "bad-request", field: "body"),
        Case(
            name: "unknown environment", method: "PUT", path: device, key: .admin,
            body: #"{"environment":"staging"}"#, status: 400, code: "bad-request", field: "environment"),
        Case(
            name: "environment the app lacks", method: "PUT",
            path: "/v1/apps/\(GatewayAPIFixture.sandboxApp)/devices/\(token)", key: .admin,
            body: #"{"environment":"production"}"#, status: 400, code: "bad-request", field: "environment"),
        Case(
            name: "user not a string", method: "PUT", path: device, key: .admin, body: #"{"user":7}"#,
            status: 400, code: "bad-request", field: "user"),
        Case(
            name: "tag not a string", method: "PUT", path: device, key: .admin, body: #"{"tags":["a",1]}"#,
            status: 400, code: "bad-request", field: "tags[1]"),
        Case(
            name: "misspelt field", method: "PUT", path: device, key: .admin, body: #"{"appVersion":"1"}"#,
            status: 400, code: "bad-request", field: "appVersion"),
        Case(
            name: "body over the limit", method: "PUT", path: device, key: .admin,
            body: #"{"user":""# + String(repeating: "x", count: 8192) + #""}"#, status: 413,
            code: "body-too-large", field: "body"),
    ]

    @Test(arguments: cases, WireProtocol.allCases)
    func aRefusedRequestSaysWhyAndStoresNothing(_ refusal: Case, _ wire: WireProtocol) async throws {
        try await GatewayAPIFixture.with(.memory) { gateway in
            let key: String? =
                switch refusal.key {
                case .none: nil
                case .bogus: "hk_" + String(repeating: "0", count: 64)
                case .admin: gateway.admin
                case .send: gateway.send
                case .register: gateway.register
                case .otherAppSend: gateway.otherAppSend
                }
            let answer = try await gateway.request(
                refusal.method, refusal.path, key: key, body: refusal.body, over: wire)
            #expect(answer.status == refusal.status, "\(answer.output) \(String(describing: answer.json))")
            #expect(answer.errorCode == refusal.code)
            #expect(answer.errorField == refusal.field)
            let message = answer.json?["error"]?["message"]?.stringValue ?? ""
            #expect(!message.isEmpty)
            #expect(answer.json?.objectValue?.keys == ["error"])
            if refusal.status == 405 { #expect(answer.headers["allow"] == "DELETE, GET, HEAD, PUT") }
            if refusal.status == 401 { #expect(answer.headers["www-authenticate"] == "Bearer") }
            for bundle in [GatewayAPIFixture.app, GatewayAPIFixture.sandboxApp] {
                #expect(try await gateway.store.deviceCounts(bundleID: bundle).values.reduce(0, +) == 0)
            }
        }
    }

    /// The same refusal from the SQLite store (the memory store serves the table above for speed).
    @Test func sqliteRefusesTheSameWay() async throws {
        try await GatewayAPIFixture.with(.sqlite) { gateway in
            let bad = try await gateway.request(
                "PUT", Self.device, key: gateway.admin, body: #"{"tags":[""]}"#, over: .http1)
            #expect(bad.status == 400 && bad.errorField == "tags[0]", "\(bad.output)")
            let forbidden = try await gateway.request("GET", Self.device, key: gateway.register, over: .http2)
            #expect(forbidden.status == 403)
            #expect(try await gateway.store.deviceCounts(bundleID: Self.app).values.reduce(0, +) == 0)
        }
    }

    /// A revoked key stops working at once.
    @Test func aRevokedKeyIsRefused() async throws {
        try await GatewayAPIFixture.with(.sqlite) { gateway in
            let made = try await gateway.store.createAPIKey(name: "r", scope: .admin, bundleID: nil, now: Clock.start)
            let before = try await gateway.request("PUT", Self.device, key: made.secret, over: .http1)
            #expect(before.status == 200, "\(before.output)")
            #expect(try await gateway.store.revokeAPIKey(id: made.key.id, now: Clock.start + 1))
            let after = try await gateway.request("GET", Self.device, key: made.secret, over: .http1)
            #expect(after.status == 401 && after.errorCode == "unauthorized")
        }
    }
}
