import APNs
import APNsClient
import Gateway
import Testing

/// The channel routes end to end: curl over HTTP/1.1 and HTTP/2 -> the gateway -> its APNsClient ->
/// the emulator (one per environment) on loopback.
@Suite(.timeLimit(.minutes(2)))
struct GatewayChannelAPITests {
    static let app = GatewayAPIFixture.app
    static let channels = "/v1/apps/\(app)/channels"

    @Test(arguments: StoreKind.allCases, WireProtocol.allCases)
    func aChannelIsCreatedListedReadAndDeletedOnAPNs(_ kind: StoreKind, _ wire: WireProtocol) async throws {
        try await GatewayChannelFixture.with(kind) { fixture in
            let gateway = fixture.gateway
            let created = try await gateway.request(
                "POST", Self.channels, key: gateway.admin,
                body: #"{"message-storage-policy":1,"environment":"sandbox"}"#,
                over: wire)
            #expect(created.status == 201 && created.version == wire.curlVersion, "\(created.output)")
            let channel = try #require(created.json)
            #expect(channel.objectValue?.keys == ["channel-id", "message-storage-policy", "environment"])
            let id = try ChannelID(try #require(channel["channel-id"]?.stringValue))
            #expect(
                channel["message-storage-policy"]?.intValue == 1 && channel["environment"]?.stringValue == "sandbox")
            #expect(fixture.sandbox.channels.policy(bundleID: Self.app, channel: id) == .mostRecentMessage)
            #expect(fixture.production.channels.channels(bundleID: Self.app).isEmpty)

            // No environment: the app's default (production), policy 0.
            let other = try await gateway.request(
                "POST", Self.channels, key: gateway.admin, body: #"{"message-storage-policy":0}"#, over: wire)
            #expect(other.status == 201 && other.json?["environment"]?.stringValue == "production", "\(other.output)")
            let otherID = try ChannelID(try #require(other.json?["channel-id"]?.stringValue))
            #expect(fixture.production.channels.policy(bundleID: Self.app, channel: otherID) == .noStorage)

            let all = try await gateway.request("GET", Self.channels, key: gateway.send, over: wire)
            #expect(all.status == 200, "\(all.output)")
            #expect(
                all.json
                    == [
                        "channels": [
                            ["channel-id": .string(id.value), "environment": "sandbox"],
                            ["channel-id": .string(otherID.value), "environment": "production"],
                        ]
                    ])
            let sandboxOnly = try await gateway.request(
                "GET", Self.channels + "?environment=sandbox", key: gateway.send, over: wire)
            #expect(sandboxOnly.json?["channels"]?.arrayValue?.map { $0["channel-id"] } == [.string(id.value)])

            let path = Self.channels + "/" + id.value.pathSegmentEncoded
            let read = try await gateway.request("GET", path + "?environment=sandbox", key: gateway.send, over: wire)
            #expect(read.status == 200 && read.json == channel, "\(read.output)")
            // The channel lives in sandbox: production's APNs does not know it.
            let elsewhere = try await gateway.request("GET", path, key: gateway.send, over: wire)
            #expect(elsewhere.status == 404 && elsewhere.errorCode == "unknown-channel", "\(elsewhere.output)")
            #expect(elsewhere.errorField == "channel-id")

            let deleted = try await gateway.request(
                "DELETE", path + "?environment=sandbox", key: gateway.admin, over: wire)
            #expect(deleted.status == 204 && deleted.bodySize == 0, "\(deleted.output)")
            #expect(fixture.sandbox.channels.channels(bundleID: Self.app).isEmpty)
            let again = try await gateway.request(
                "DELETE", path + "?environment=sandbox", key: gateway.admin, over: wire)
            #expect(again.status == 404 && again.errorCode == "unknown-channel" && again.errorField == "channel-id")
            let left = try await gateway.request("GET", Self.channels, key: gateway.admin, over: wire)
            #expect(left.json?["channels"]?.arrayValue?.count == 1)
        }
    }

    /// Channel ids are base64: one with '/' or '+' in it reaches APNs intact when sent as %2F / %2B.
    @Test(arguments: WireProtocol.allCases)
    func anIdWithASlashIsSentPercentEncoded(_ wire: WireProtocol) async throws {
        try await GatewayChannelFixture.with(.memory) { fixture in
            let gateway = fixture.gateway
            var found: ChannelID?
            // Each random id has a '/' or '+' with a probability of about one half.
            for _ in 0..<64 where found == nil {
                let created = try await gateway.request(
                    "POST", Self.channels, key: gateway.admin, body: #"{"message-storage-policy":1}"#, over: wire)
                let id = try ChannelID(try #require(created.json?["channel-id"]?.stringValue))
                if id.value.contains("/") || id.value.contains("+") { found = id }
            }
            let id = try #require(found)
            let path = Self.channels + "/" + id.value.pathSegmentEncoded
            let read = try await gateway.request("GET", path, key: gateway.send, over: wire)
            #expect(read.status == 200 && read.json?["channel-id"]?.stringValue == id.value, "\(read.output)")
            let deleted = try await gateway.request("DELETE", path, key: gateway.admin, over: wire)
            #expect(deleted.status == 204, "\(deleted.output)")
            #expect(fixture.production.channels.policy(bundleID: Self.app, channel: id) == nil)
        }
    }

    /// `/openapi.json` documents `?environment=` on the routes that take it, and only there.
    @Test func theEnvironmentQueryIsDocumented() async throws {
        try await GatewayAPIFixture.with(.memory) { gateway in
            let document = try #require(try await gateway.request("GET", "/openapi.json", key: nil, over: .http1).json)
            let environment: JSONValue = [
                "name": "environment", "in": "query", "required": false, "schema": ["type": "string"],
            ]
            for route in GatewayRoute.all {
                let parameters = document["paths"]?[route.pattern]?[route.method.lowercased()]?["parameters"]
                let documented = parameters?.arrayValue?.contains(environment) == true
                let takesIt =
                    route.pattern.hasSuffix("/channels") && route.method == "GET"
                    || route.pattern.hasSuffix("/channels/{channel-id}")
                #expect(documented == takesIt, "\(route.method) \(route.pattern)")
            }
        }
    }
}
