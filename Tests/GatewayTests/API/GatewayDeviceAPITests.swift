import APNs
import Gateway
import Testing

/// The device routes end to end: curl over HTTP/1.1 and HTTP/2 (prior knowledge) against both stores.
@Suite(.timeLimit(.minutes(2)))
struct GatewayDeviceAPITests {
    static let devicePath = "/v1/apps/\(GatewayAPIFixture.app)/devices/"
    static let deviceFields: Set = [
        "token", "environment", "user", "tags", "locale", "app-version", "registered-at", "status", "status-reason",
    ]

    @Test(arguments: StoreKind.allCases, WireProtocol.allCases)
    func aDeviceIsRegisteredReadListedAndForgotten(_ kind: StoreKind, _ wire: WireProtocol) async throws {
        try await GatewayAPIFixture.with(kind) { gateway in
            let hex = "A1B2" + String(repeating: "0", count: 60)
            let path = Self.devicePath + hex
            let put = try await gateway.request(
                "PUT", path, key: gateway.register,
                body:
                    #"{"environment":"sandbox","user":"alice","tags":["news","beta","news"],"locale":"fr_FR","app-version":"2.1"}"#,
                over: wire)
            #expect(put.status == 200 && put.version == wire.curlVersion, "\(put.output)")
            let device = try #require(put.json)
            #expect(Set(device.objectValue?.keys ?? []) == Self.deviceFields)
            #expect(device["token"]?.stringValue == hex.lowercased())
            #expect(device["environment"]?.stringValue == "sandbox")
            #expect(device["user"]?.stringValue == "alice")
            #expect(device["tags"] == ["beta", "news"])
            #expect(device["locale"]?.stringValue == "fr_FR" && device["app-version"]?.stringValue == "2.1")
            #expect(device["status"]?.stringValue == "active" && device["status-reason"]?.isNull == true)
            #expect((device["registered-at"]?.intValue ?? 0) > Clock.start)
            #expect(put.headers["content-type"] == "application/json")

            let got = try await gateway.request("GET", path, key: gateway.send, over: wire)
            #expect(got.status == 200 && got.json == device, "\(got.output)")

            let listed = try await gateway.request(
                "GET", "/v1/apps/\(GatewayAPIFixture.app)/users/alice/devices", key: gateway.send, over: wire)
            #expect(listed.status == 200 && listed.json?["devices"] == [device], "\(listed.output)")
            let nobody = try await gateway.request(
                "GET", "/v1/apps/\(GatewayAPIFixture.app)/users/bob/devices", key: gateway.admin, over: wire)
            #expect(nobody.status == 200 && nobody.json?["devices"] == [])

            // An upload without a body: the app's default environment, no user, no tags.
            let again = try await gateway.request("PUT", path, key: gateway.admin, over: wire)
            #expect(again.status == 200, "\(again.output)")
            #expect(again.json?["environment"]?.stringValue == "production")
            #expect(again.json?["user"]?.isNull == true && again.json?["tags"] == [])
            let stored = try await gateway.store.device(bundleID: GatewayAPIFixture.app, token: DeviceToken(hex: hex))
            #expect(stored?.environment == .production && stored?.user == nil)

            let deleted = try await gateway.request("DELETE", path, key: gateway.register, over: wire)
            #expect(deleted.status == 204 && deleted.bodySize == 0, "\(deleted.output)")
            let gone = try await gateway.request("GET", path, key: gateway.send, over: wire)
            #expect(gone.status == 404 && gone.errorCode == "unknown-device" && gone.errorField == "token")
            let deletedAgain = try await gateway.request("DELETE", path, key: gateway.register, over: wire)
            #expect(deletedAgain.status == 404 && deletedAgain.errorCode == "unknown-device")
        }
    }

    @Test(arguments: WireProtocol.allCases)
    func healthzAnswersWithoutAKey(_ wire: WireProtocol) async throws {
        try await GatewayAPIFixture.with(.memory) { gateway in
            let health = try await gateway.request("GET", "/healthz", key: nil, over: wire)
            #expect(health.status == 200 && health.json == ["status": "ok"], "\(health.output)")
        }
    }
}
