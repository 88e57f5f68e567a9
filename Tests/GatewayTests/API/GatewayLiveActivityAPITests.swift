import APNs
import Gateway
import Testing

/// The Live Activity routes end to end: curl over HTTP/1.1 and HTTP/2 against both stores.
@Suite(.timeLimit(.minutes(2)))
struct GatewayLiveActivityAPITests {
    static let app = GatewayAPIFixture.app
    static let pushToStartPath = "/v1/apps/\(app)/live-activities/push-to-start/"
    static let activityPath = "/v1/apps/\(app)/live-activities/"
    static let pushToStartFields: Set = [
        "token", "environment", "user", "attributes-type", "registered-at", "status", "status-reason",
    ]
    static let activityFields: Set = [
        "activity-id", "token", "environment", "user", "registered-at", "status", "status-reason",
    ]

    @Test(arguments: StoreKind.allCases, WireProtocol.allCases)
    func pushToStartTokensAreRegisteredListedAndForgotten(_ kind: StoreKind, _ wire: WireProtocol) async throws {
        try await GatewayAPIFixture.with(kind) { gateway in
            let hex = "C0FFEE" + String(repeating: "1", count: 58)
            let put = try await gateway.request(
                "PUT", Self.pushToStartPath + hex, key: gateway.register,
                body: #"{"attributes-type":"DeliveryAttributes","user":"alice","environment":"sandbox"}"#, over: wire)
            #expect(put.status == 200 && put.version == wire.curlVersion, "\(put.output)")
            let token = try #require(put.json)
            #expect(Set(token.objectValue?.keys ?? []) == Self.pushToStartFields)
            #expect(token["token"]?.stringValue == hex.lowercased())
            #expect(token["attributes-type"]?.stringValue == "DeliveryAttributes")
            #expect(token["user"]?.stringValue == "alice" && token["environment"]?.stringValue == "sandbox")
            #expect(token["status"]?.stringValue == "active" && token["status-reason"]?.isNull == true)
            #expect((token["registered-at"]?.intValue ?? 0) > Clock.start)

            // A second token for the same user: the list has both, in registration order.
            let other = String(repeating: "2", count: 64)
            let second = try await gateway.request(
                "PUT", Self.pushToStartPath + other, key: gateway.register,
                body: #"{"attributes-type":"ScoreAttributes","user":"alice"}"#, over: wire)
            #expect(second.status == 200 && second.json?["environment"]?.stringValue == "production")
            let listed = try await gateway.request(
                "GET", "/v1/apps/\(Self.app)/users/alice/push-to-start", key: gateway.send, over: wire)
            #expect(listed.status == 200, "\(listed.output)")
            let tokens = listed.json?["push-to-start-tokens"]?.arrayValue ?? []
            #expect(tokens.count == 2 && tokens.first == token)
            #expect(tokens.last?["token"]?.stringValue == other)
            let stored = try await gateway.store.pushToStartTokens(bundleID: Self.app, user: "alice")
            #expect(stored.map(\.attributesType) == ["DeliveryAttributes", "ScoreAttributes"])
            let nobody = try await gateway.request(
                "GET", "/v1/apps/\(Self.app)/users/bob/push-to-start", key: gateway.send, over: wire)
            #expect(nobody.status == 200 && nobody.json?["push-to-start-tokens"] == [])

            let deleted = try await gateway.request(
                "DELETE", Self.pushToStartPath + hex, key: gateway.register, over: wire)
            #expect(deleted.status == 204 && deleted.bodySize == 0, "\(deleted.output)")
            let again = try await gateway.request(
                "DELETE", Self.pushToStartPath + hex, key: gateway.register, over: wire)
            #expect(again.status == 404 && again.errorCode == "unknown-push-to-start-token")
            #expect(again.errorField == "token")
            #expect(try await gateway.store.pushToStartTokens(bundleID: Self.app, user: "alice").count == 1)
        }
    }

    @Test(arguments: StoreKind.allCases, WireProtocol.allCases)
    func anActivityTokenIsRegisteredReplacedReadAndForgotten(_ kind: StoreKind, _ wire: WireProtocol) async throws {
        try await GatewayAPIFixture.with(kind) { gateway in
            let activityID = "5F3C0B52-9A0E-4C7F-8B1D-2D4E6F8A0B1C"
            let path = Self.activityPath + activityID
            let first = String(repeating: "ab", count: 40)
            let put = try await gateway.request(
                "PUT", path, key: gateway.register, body: #"{"token":"\#(first.uppercased())","user":"alice"}"#,
                over: wire)
            #expect(put.status == 200 && put.version == wire.curlVersion, "\(put.output)")
            let activity = try #require(put.json)
            #expect(Set(activity.objectValue?.keys ?? []) == Self.activityFields)
            #expect(activity["activity-id"]?.stringValue == activityID)
            #expect(activity["token"]?.stringValue == first && activity["environment"]?.stringValue == "production")
            #expect(activity["user"]?.stringValue == "alice" && activity["status"]?.stringValue == "active")

            // ActivityKit handed out a new token: the new PUT replaces the old one.
            let second = String(repeating: "cd", count: 40)
            let replaced = try await gateway.request(
                "PUT", path, key: gateway.register, body: #"{"token":"\#(second)","environment":"sandbox"}"#,
                over: wire)
            #expect(replaced.status == 200, "\(replaced.output)")
            let got = try await gateway.request("GET", path, key: gateway.send, over: wire)
            #expect(got.status == 200 && got.json == replaced.json, "\(got.output)")
            #expect(got.json?["token"]?.stringValue == second && got.json?["environment"]?.stringValue == "sandbox")
            #expect(got.json?["user"]?.isNull == true)
            let stored = try await gateway.store.activityToken(bundleID: Self.app, activityID: activityID)
            #expect(stored?.token.hex == second && stored?.environment == .sandbox)

            let deleted = try await gateway.request("DELETE", path, key: gateway.register, over: wire)
            #expect(deleted.status == 204 && deleted.bodySize == 0, "\(deleted.output)")
            let gone = try await gateway.request("GET", path, key: gateway.send, over: wire)
            #expect(gone.status == 404 && gone.errorCode == "unknown-activity" && gone.errorField == "activity-id")
            let deletedAgain = try await gateway.request("DELETE", path, key: gateway.register, over: wire)
            #expect(deletedAgain.status == 404 && deletedAgain.errorCode == "unknown-activity")
        }
    }

    /// An upload revives a pruned token, as it does for devices: the app was handed the token again.
    @Test(arguments: StoreKind.allCases)
    func anUploadRevivesAPrunedActivityToken(_ kind: StoreKind) async throws {
        try await GatewayAPIFixture.with(kind) { gateway in
            let token = String(repeating: "ef", count: 32)
            let path = Self.activityPath + "game-7"
            let put = try await gateway.request(
                "PUT", path, key: gateway.register, body: #"{"token":"\#(token)"}"#, over: .http1)
            #expect(put.status == 200, "\(put.output)")
            let registeredAt = try #require(put.json?["registered-at"]?.intValue)
            let pruned = try await gateway.store.prune(
                .unregister(timestamp: registeredAt + 1, statusReason: "Unregistered (410)"), bundleID: Self.app,
                kind: .activity, token: token)
            #expect(pruned)
            let read = try await gateway.request("GET", path, key: gateway.send, over: .http2)
            #expect(read.json?["status"]?.stringValue == "unregistered")
            #expect(read.json?["status-reason"]?.stringValue == "Unregistered (410)")
            let again = try await gateway.request(
                "PUT", path, key: gateway.register, body: #"{"token":"\#(token)"}"#, over: .http2)
            #expect(again.json?["status"]?.stringValue == "active" && again.json?["status-reason"]?.isNull == true)
        }
    }

    /// An activity id is the app's own string, kept as given once percent-decoded.
    @Test(arguments: WireProtocol.allCases)
    func anActivityIDIsKeptAsGiven(_ wire: WireProtocol) async throws {
        try await GatewayAPIFixture.with(.sqlite) { gateway in
            let path = Self.activityPath + "caf%C3%A9%20match+1"
            let token = String(repeating: "12", count: 32)
            let put = try await gateway.request(
                "PUT", path, key: gateway.register, body: #"{"token":"\#(token)"}"#, over: wire)
            #expect(put.status == 200 && put.json?["activity-id"]?.stringValue == "café match+1", "\(put.output)")
            let stored = try await gateway.store.activityToken(bundleID: Self.app, activityID: "café match+1")
            #expect(stored?.token.hex == token)
            let got = try await gateway.request("GET", path, key: gateway.send, over: wire)
            #expect(got.status == 200 && got.json == put.json, "\(got.output)")
        }
    }
}
