import APNs
import Testing

/// Broadcast sends against APNS-REFERENCE.md ("Broadcast push (iOS 18)"): one case per reason,
/// with its status and the apns-request-id it echoes, the accepted shapes, and the order of checks.
@Suite(.timeLimit(.minutes(1)))
struct BroadcastValidatorTests {
    static let path = "/4/broadcasts/apps/com.example.app"
    static let id = "123e4567-e89b-12d3-a456-426655440000"
    static let channel = "dHN0LXNyY2gtY2hubA=="
    static let update = Array(#"{"aps":{"event":"update","timestamp":1767225600,"content-state":{"score":1}}}"#.utf8)
    static let end = Array(#"{"aps":{"event":"end","timestamp":1767225600}}"#.utf8)

    static func headers(
        id: String? = BroadcastValidatorTests.id, pushType: String? = "liveactivity",
        channel: String? = BroadcastValidatorTests.channel, _ extra: [(name: String, value: String)] = []
    ) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [("authorization", "bearer x.y.z")]
        if let id { headers.append(("apns-request-id", id)) }
        if let pushType { headers.append(("apns-push-type", pushType)) }
        if let channel { headers.append(("apns-channel-id", channel)) }
        return headers + extra
    }

    /// A Live Activity update of exactly `size` bytes.
    static func update(size: Int) -> [UInt8] {
        let head = Array(#"{"aps":{"event":"update","timestamp":1,"content-state":{"p":""#.utf8)
        let tail = Array(#""}}}"#.utf8)
        return head + Array(repeating: UInt8(ascii: "x"), count: size - head.count - tail.count) + tail
    }

    struct Rejected: Sendable, CustomTestStringConvertible {
        enum Phase: Sendable { case headers, channel }
        let label: String
        var method = "POST"
        var path = BroadcastValidatorTests.path
        var headers = BroadcastValidatorTests.headers()
        var body = BroadcastValidatorTests.update
        var storagePolicy: MessageStoragePolicy? = .mostRecentMessage
        var policy = BroadcastPolicy()
        let reason: Reason
        let status: Int
        var phase = Phase.headers
        var echoes = true
        var testDescription: String { label }
    }

    static let allowOnlyExample: BroadcastPolicy = {
        var policy = BroadcastPolicy()
        policy.allowedBundleIDs = ["com.example.app"]
        return policy
    }()

    static let rejections: [Rejected] = [
        Rejected(
            label: "apns-request-id not a UUID", headers: headers(id: "nope"), reason: .badMessageId, status: 400,
            echoes: false),
        Rejected(label: "GET", method: "GET", reason: .methodNotAllowed, status: 405),
        Rejected(label: "no bundle id", path: "/4/broadcasts/apps/", reason: .badPath, status: 404),
        Rejected(label: "/4/broadcasts/apps/<bundle>/x", path: path + "/x", reason: .badPath, status: 404),
        Rejected(
            label: "/4/broadcast/apps/<bundle>", path: "/4/broadcast/apps/com.example.app", reason: .badPath,
            status: 404),
        Rejected(
            label: "bundle id with .push-type.liveactivity", path: path + ".push-type.liveactivity",
            reason: .topicDisallowed, status: 400),
        Rejected(label: "bundle id with .voip", path: path + ".voip", reason: .topicDisallowed, status: 400),
        Rejected(
            label: "bundle id the credentials do not cover", path: "/4/broadcasts/apps/com.other.app",
            policy: allowOnlyExample, reason: .topicMismatch, status: 403),
        Rejected(
            label: "broadcast not enabled for the app",
            policy: {
                var policy = BroadcastPolicy()
                policy.broadcastEnabledBundleIDs = []
                return policy
            }(),
            reason: .featureNotEnabled, status: 400),
        Rejected(label: "no apns-push-type", headers: headers(pushType: nil), reason: .missingPushType, status: 400),
        Rejected(label: "empty apns-push-type", headers: headers(pushType: ""), reason: .missingPushType, status: 400),
        Rejected(label: "push type alert", headers: headers(pushType: "alert"), reason: .invalidPushType, status: 400),
        Rejected(
            label: "push type LiveActivity", headers: headers(pushType: "LiveActivity"), reason: .invalidPushType,
            status: 400),
        Rejected(label: "no apns-channel-id", headers: headers(channel: nil), reason: .missingChannelId, status: 400),
        Rejected(label: "empty apns-channel-id", headers: headers(channel: ""), reason: .missingChannelId, status: 400),
        Rejected(
            label: "channel id not base64", headers: headers(channel: "not base64!"), reason: .badChannelId, status: 400
        ),
        Rejected(
            label: "channel id of 5 characters", headers: headers(channel: "abcde"), reason: .badChannelId, status: 400),
        Rejected(
            label: "channel id with padding inside", headers: headers(channel: "ab=c"), reason: .badChannelId,
            status: 400),
        Rejected(label: "priority 1", headers: headers([("apns-priority", "1")]), reason: .badPriority, status: 400),
        Rejected(label: "priority 7", headers: headers([("apns-priority", "7")]), reason: .badPriority, status: 400),
        Rejected(
            label: "expiration 'soon'", headers: headers([("apns-expiration", "soon")]), reason: .badExpirationDate,
            status: 400),
        // After the provider token: the channel, then the payload.
        Rejected(
            label: "channel not registered", storagePolicy: nil, reason: .channelNotRegistered, status: 400,
            phase: .channel),
        Rejected(
            label: "expiration in the future on a no-storage channel",
            headers: headers([("apns-expiration", "1767225600")]),
            storagePolicy: .noStorage, reason: .badExpirationDate, status: 400, phase: .channel),
        Rejected(
            label: "no expiration on a no-storage channel, when the policy wants it",
            storagePolicy: .noStorage,
            policy: {
                var policy = BroadcastPolicy()
                policy.noStorageRequiresExplicitExpiration = true
                return policy
            }(),
            reason: .badExpirationDate, status: 400, phase: .channel),
        Rejected(label: "empty payload", body: [], reason: .payloadEmpty, status: 400, phase: .channel),
        Rejected(
            label: "payload of 5121 bytes", body: update(size: 5121), reason: .payloadTooLarge, status: 413,
            phase: .channel),
        Rejected(
            label: "payload not JSON", body: Array("{aps".utf8), reason: .badRequestPayload, status: 400,
            phase: .channel),
        Rejected(
            label: "payload a JSON array", body: Array("[]".utf8), reason: .badRequestPayload, status: 400,
            phase: .channel),
        Rejected(
            label: "an alert, not a Live Activity", body: Array(#"{"aps":{"alert":"hi"}}"#.utf8),
            reason: .badRequestPayload,
            status: 400, phase: .channel),
        Rejected(
            label: "a Live Activity start",
            body: Array(
                #"{"aps":{"event":"start","timestamp":1,"content-state":{},"attributes-type":"A","attributes":{}}}"#
                    .utf8),
            reason: .badRequestPayload, status: 400, phase: .channel),
        Rejected(
            label: "update without content-state", body: Array(#"{"aps":{"event":"update","timestamp":1}}"#.utf8),
            reason: .badRequestPayload, status: 400, phase: .channel),
        Rejected(
            label: "update without timestamp", body: Array(#"{"aps":{"event":"update","content-state":{}}}"#.utf8),
            reason: .badRequestPayload, status: 400, phase: .channel),
    ]

    static func run(_ rejected: Rejected) -> Result<AcceptedBroadcast, PushRejection> {
        let request = IncomingPushRequest(
            method: rejected.method, path: rejected.path, headers: rejected.headers, body: rejected.body)
        return BroadcastValidator.validateHeaders(request, policy: rejected.policy).flatMap {
            BroadcastValidator.validate(
                $0, storagePolicy: rejected.storagePolicy, body: rejected.body, policy: rejected.policy)
        }
    }

    @Test(arguments: rejections)
    func rejection(_ rejected: Rejected) throws {
        let request = IncomingPushRequest(
            method: rejected.method, path: rejected.path, headers: rejected.headers, body: rejected.body)
        let headerPhase = BroadcastValidator.validateHeaders(request, policy: rejected.policy)
        #expect((try? headerPhase.get()) == nil ? rejected.phase == .headers : rejected.phase == .channel)
        guard case .failure(let rejection) = Self.run(rejected) else {
            Issue.record("\(rejected.label) was accepted")
            return
        }
        #expect(rejection.reason == rejected.reason)
        #expect(rejection.status == rejected.status)
        #expect(rejection.reason.status == rejected.status, "the status comes from the reason table")
        if rejected.echoes {
            #expect(rejection.apnsID == Self.id)
        } else {
            #expect(rejection.apnsID != nil && rejection.apnsID != Self.id)
        }
    }

    struct Accepted: Sendable, CustomTestStringConvertible {
        let label: String
        var headers = BroadcastValidatorTests.headers()
        var body = BroadcastValidatorTests.update
        var storagePolicy = MessageStoragePolicy.mostRecentMessage
        var priority = Priority.immediate
        var expiration: Expiration? = nil
        var testDescription: String { label }
    }

    static let accepted: [Accepted] = [
        Accepted(label: "an update, defaults"),
        Accepted(label: "an end", body: end),
        Accepted(label: "priority 5", headers: headers([("apns-priority", "5")]), priority: .powerConsiderate),
        Accepted(
            label: "expiration on a storing channel", headers: headers([("apns-expiration", "1767225600")]),
            expiration: .at(unixSeconds: 1_767_225_600)),
        Accepted(
            label: "no expiration on a no-storage channel counts as 0", storagePolicy: .noStorage,
            expiration: .immediately),
        Accepted(
            label: "expiration 0 on a no-storage channel", headers: headers([("apns-expiration", "0")]),
            storagePolicy: .noStorage, expiration: .immediately),
        Accepted(label: "payload of exactly 5120 bytes", body: update(size: 5120)),
        Accepted(
            label: "header names in any case",
            headers: [("Apns-Push-Type", "liveactivity"), ("APNS-CHANNEL-ID", channel), ("apns-request-id", id)]),
    ]

    @Test(arguments: accepted)
    func accepts(_ accepted: Accepted) throws {
        let request = IncomingPushRequest(
            method: "POST", path: Self.path, headers: accepted.headers, body: accepted.body)
        let broadcast = try BroadcastValidator.validateHeaders(request, policy: BroadcastPolicy()).flatMap {
            BroadcastValidator.validate(
                $0, storagePolicy: accepted.storagePolicy, body: accepted.body, policy: BroadcastPolicy())
        }.get()
        #expect(broadcast.bundleID == "com.example.app")
        #expect(broadcast.channelID.value == Self.channel)
        #expect(broadcast.storagePolicy == accepted.storagePolicy)
        #expect(broadcast.priority == accepted.priority)
        #expect(broadcast.expiration == accepted.expiration)
        #expect(broadcast.requestID == Self.id)
        #expect(broadcast.payload == accepted.body)
    }

    @Test func anAbsentRequestIDIsGenerated() throws {
        let request = IncomingPushRequest(
            method: "POST", path: Self.path, headers: Self.headers(id: nil), body: Self.update)
        let headers = try BroadcastValidator.validateHeaders(request, policy: BroadcastPolicy()).get()
        #expect((try? APNsID(headers.requestID))?.value == headers.requestID)
    }

    @Test func theEarlierCheckWins() {
        // Both a suffix on the bundle id and no push type: the bundle id is checked first.
        let request = IncomingPushRequest(
            method: "POST", path: Self.path + ".voip", headers: Self.headers(pushType: nil), body: Self.update)
        #expect(
            BroadcastValidator.validateHeaders(request, policy: BroadcastPolicy()).failureReason == .topicDisallowed)
    }
}

extension Result where Failure == PushRejection {
    var failureReason: Reason? {
        if case .failure(let rejection) = self { return rejection.reason }
        return nil
    }
}
