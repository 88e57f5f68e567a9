import APNs
import Testing

/// Channel management requests against APNS-REFERENCE.md ("Broadcast push (iOS 18)"): every
/// reason the header and body phases answer, the operations they recognise, and channel ids.
@Suite(.timeLimit(.minutes(1)))
struct ChannelRequestValidatorTests {
    static let channels = "/1/apps/com.example.app/channels"
    static let all = "/1/apps/com.example.app/all-channels"
    static let id = "123e4567-e89b-12d3-a456-426655440000"
    static let channel = "dHN0LXNyY2gtY2hubA=="

    static func headers(
        id: String? = ChannelRequestValidatorTests.id, channel: String? = ChannelRequestValidatorTests.channel
    ) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [("authorization", "bearer x.y.z")]
        if let id { headers.append(("apns-request-id", id)) }
        if let channel { headers.append(("apns-channel-id", channel)) }
        return headers
    }

    struct Rejected: Sendable, CustomTestStringConvertible {
        let label: String
        var method = "GET"
        var path = ChannelRequestValidatorTests.channels
        var headers = ChannelRequestValidatorTests.headers()
        var policy = BroadcastPolicy()
        let reason: Reason
        let status: Int
        var echoes = true
        var testDescription: String { label }
    }

    static let rejections: [Rejected] = [
        Rejected(
            label: "apns-request-id malformed", headers: headers(id: "x"), reason: .badMessageId, status: 400,
            echoes: false),
        Rejected(label: "/1/apps/<bundle>", path: "/1/apps/com.example.app", reason: .badPath, status: 404),
        Rejected(label: "/1/apps//channels", path: "/1/apps//channels", reason: .badPath, status: 404),
        Rejected(
            label: "/1/apps/<bundle>/channel", path: "/1/apps/com.example.app/channel", reason: .badPath, status: 404),
        Rejected(label: "/1/apps/<bundle>/channels/x", path: channels + "/x", reason: .badPath, status: 404),
        Rejected(label: "PUT /channels", method: "PUT", reason: .methodNotAllowed, status: 405),
        Rejected(label: "POST /all-channels", method: "POST", path: all, reason: .methodNotAllowed, status: 405),
        Rejected(label: "DELETE /all-channels", method: "DELETE", path: all, reason: .methodNotAllowed, status: 405),
        Rejected(
            label: "bundle id with a suffix", path: "/1/apps/com.example.app.push-type.liveactivity/channels",
            reason: .topicDisallowed, status: 400),
        Rejected(label: "bundle id with a space", path: "/1/apps/com example/channels", reason: .badPath, status: 404),
        Rejected(
            label: "bundle id not covered", path: "/1/apps/com.other.app/channels",
            policy: {
                var policy = BroadcastPolicy()
                policy.allowedBundleIDs = ["com.example.app"]
                return policy
            }(),
            reason: .topicMismatch, status: 403),
        Rejected(
            label: "feature not enabled",
            policy: {
                var policy = BroadcastPolicy()
                policy.broadcastEnabledBundleIDs = ["com.other.app"]
                return policy
            }(),
            reason: .featureNotEnabled, status: 400),
        Rejected(
            label: "read without apns-channel-id", headers: headers(channel: nil), reason: .missingChannelId,
            status: 400),
        Rejected(
            label: "delete without apns-channel-id", method: "DELETE", headers: headers(channel: nil),
            reason: .missingChannelId, status: 400),
        Rejected(
            label: "read with a malformed channel id", headers: headers(channel: "%%%%"), reason: .badChannelId,
            status: 400),
        Rejected(
            label: "delete with a malformed channel id", method: "DELETE", headers: headers(channel: "abc"),
            reason: .badChannelId, status: 400),
    ]

    @Test(arguments: rejections)
    func rejection(_ rejected: Rejected) {
        let request = IncomingPushRequest(
            method: rejected.method, path: rejected.path, headers: rejected.headers, body: [])
        guard case .failure(let rejection) = ChannelRequestValidator.validateHeaders(request, policy: rejected.policy)
        else {
            Issue.record("\(rejected.label) was accepted")
            return
        }
        #expect(rejection.reason == rejected.reason)
        #expect(rejection.status == rejected.status)
        #expect(rejection.reason.status == rejected.status)
        #expect(rejected.echoes ? rejection.apnsID == Self.id : rejection.apnsID != Self.id)
    }

    @Test(arguments: [
        ("POST", channels, "create"), ("GET", channels, "read"), ("DELETE", channels, "delete"), ("GET", all, "list"),
    ])
    func operations(_ method: String, _ path: String, _ name: String) throws {
        let channel = try ChannelID(Self.channel)
        let operation: ChannelOperation =
            switch name {
            case "create": .create
            case "read": .read(channel)
            case "delete": .delete(channel)
            default: .list
            }
        let request = IncomingPushRequest(method: method, path: path, headers: Self.headers(), body: [])
        let valid = try ChannelRequestValidator.validateHeaders(request, policy: BroadcastPolicy()).get()
        #expect(valid.operation == operation)
        #expect(valid.bundleID == "com.example.app")
        #expect(valid.requestID == Self.id)
        #expect(valid.authorization == "bearer x.y.z")
    }

    @Test(arguments: [
        ("", Reason.payloadEmpty),
        ("nope", .badRequestPayload),
        ("[1]", .badRequestPayload),
        (#"{"message-storage-policy":1}"#, .missingPushType),
        (#"{"message-storage-policy":1,"push-type":"liveactivity"}"#, .invalidPushType),
        (#"{"message-storage-policy":1,"push-type":"alert"}"#, .invalidPushType),
        (#"{"push-type":"LiveActivity"}"#, .badRequestParams),
        (#"{"message-storage-policy":2,"push-type":"LiveActivity"}"#, .badRequestParams),
        (#"{"message-storage-policy":"1","push-type":"LiveActivity"}"#, .badRequestParams),
        (#"{"message-storage-policy":0.5,"push-type":"LiveActivity"}"#, .badRequestParams),
    ])
    func createBodyRejections(_ body: String, _ reason: Reason) {
        let result = ChannelRequestValidator.validateCreateBody(Array(body.utf8), requestID: Self.id)
        guard case .failure(let rejection) = result else {
            Issue.record("\(body) was accepted")
            return
        }
        #expect(rejection.reason == reason)
        #expect(rejection.status == 400)
        #expect(rejection.apnsID == Self.id)
    }

    @Test(arguments: MessageStoragePolicy.allCases)
    func createBodyRoundTrip(_ policy: MessageStoragePolicy) throws {
        let body = ChannelConfiguration(storagePolicy: policy).json.encoded()
        #expect(
            String(decoding: body, as: UTF8.self)
                == #"{"message-storage-policy":\#(policy.rawValue),"push-type":"LiveActivity"}"#)
        let parsed = try ChannelRequestValidator.validateCreateBody(body, requestID: Self.id).get()
        #expect(parsed.storagePolicy == policy)
    }

    @Test(arguments: ["dHN0LXNyY2gtY2hubA==", "YQ==", "YWI=", "YWJj", "ab+/cd=="])
    func validChannelIDs(_ text: String) throws {
        #expect(try ChannelID(text).value == text)
    }

    @Test(arguments: ["", "a", "abc", "ab=c", "a===", "ab-_", "YWJj\n", "====", "ab c"])
    func invalidChannelIDs(_ text: String) {
        #expect(throws: FieldError.self) { try ChannelID(text) }
    }

    @Test func randomChannelIDsAreBase64AndDistinct() throws {
        var generator = SystemRandomNumberGenerator()
        let ids = (0..<200).map { _ in ChannelID.random(using: &generator) }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(try ChannelID(id.value) == id)
            #expect(id.value.count == 24, "16 bytes are 24 base64 characters")
        }
    }

    @Test(arguments: [("0", MessageStoragePolicy.noStorage), ("1", .mostRecentMessage)])
    func storagePolicyText(_ text: String, _ policy: MessageStoragePolicy) throws {
        #expect(try MessageStoragePolicy(text: text) == policy)
    }

    @Test(arguments: ["", "2", "01", "one", "-1"])
    func invalidStoragePolicyText(_ text: String) {
        #expect(throws: FieldError.self) { try MessageStoragePolicy(text: text) }
    }
}
