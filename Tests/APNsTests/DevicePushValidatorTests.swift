import APNs
import Testing

/// The emulator's validation core against APNS-REFERENCE.md ("Device push request", "Push types",
/// "Payload", "Responses", "Where Apple is silent"): one case per reason it can answer, with the
/// exact status and the apns-id it echoes, the accepted shape of every push type, and the order of
/// checks when a request has two problems.
@Suite(.timeLimit(.minutes(1)))
struct DevicePushValidatorTests {
    static let token = String(repeating: "a1b2c3d4", count: 8)
    static let path = "/3/device/" + token
    static let id = "123e4567-e89b-12d3-a456-426655440000"
    static let alertBody = Array(#"{"aps":{"alert":"hi"}}"#.utf8)
    static let backgroundBody = Array(#"{"aps":{"content-available":1}}"#.utf8)

    /// The usual headers of a valid alert push, with each one replaceable or removable (nil).
    static func headers(
        id: String? = DevicePushValidatorTests.id, topic: String? = "com.example.app", pushType: String? = "alert",
        _ extra: [(name: String, value: String)] = []
    ) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [("authorization", "bearer x.y.z")]
        if let id { headers.append(("apns-id", id)) }
        if let topic { headers.append(("apns-topic", topic)) }
        if let pushType { headers.append(("apns-push-type", pushType)) }
        return headers + extra
    }

    /// A JSON object of exactly `size` bytes.
    static func body(size: Int) -> [UInt8] {
        let frame = #"{"pad":""}"#.utf8.count
        return Array(#"{"pad":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: size - frame) + Array(#""}"#.utf8)
    }

    static func isCanonicalLowercaseUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 36
            && bytes.enumerated().allSatisfy { index, byte in
                [8, 13, 18, 23].contains(index)
                    ? byte == UInt8(ascii: "-")
                    : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                        || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            }
    }

    static func policy(_ change: (inout DevicePushPolicy) -> Void) -> DevicePushPolicy {
        var policy = DevicePushPolicy()
        change(&policy)
        return policy
    }

    // MARK: - Rejections

    /// A request APNs refuses, and its answer.
    struct Rejected: Sendable, CustomTestStringConvertible {
        enum Phase: Sendable { case headers, payload }

        let label: String
        var method = "POST"
        var path = DevicePushValidatorTests.path
        var headers = DevicePushValidatorTests.headers()
        var body = DevicePushValidatorTests.alertBody
        var policy = DevicePushPolicy()
        let reason: Reason
        /// The reference's status, written by hand.
        let status: Int
        /// Which phase refuses it.
        var phase = Phase.headers
        /// Whether the answer echoes the request's apns-id (else it carries a generated one).
        var echoes = true
        var testDescription: String { label }
    }

    static let rejections: [Rejected] = [
        // DuplicateHeaders
        Rejected(
            label: "repeated apns-priority", headers: headers([("apns-priority", "10"), ("apns-priority", "10")]),
            reason: .duplicateHeaders, status: 400),
        Rejected(
            label: "repeated header, names differing in case",
            headers: headers([("apns-collapse-id", "a"), ("Apns-Collapse-Id", "b")]), reason: .duplicateHeaders,
            status: 400),
        Rejected(
            label: "repeated unknown header", headers: headers([("x-custom", "1"), ("x-custom", "2")]),
            reason: .duplicateHeaders, status: 400),
        Rejected(
            label: "repeated apns-id: nothing to echo", headers: headers(id: nil, [("apns-id", id), ("apns-id", id)]),
            reason: .duplicateHeaders, status: 400, echoes: false),
        // BadMessageId
        Rejected(
            label: "apns-id not a UUID", headers: headers(id: "not-a-uuid"), reason: .badMessageId, status: 400,
            echoes: false),
        Rejected(
            label: "apns-id without dashes", headers: headers(id: "123e4567e89b12d3a456426655440000"),
            reason: .badMessageId, status: 400, echoes: false),
        Rejected(label: "apns-id empty", headers: headers(id: ""), reason: .badMessageId, status: 400, echoes: false),
        // MethodNotAllowed
        Rejected(label: "GET", method: "GET", reason: .methodNotAllowed, status: 405),
        Rejected(label: "lowercase post", method: "post", reason: .methodNotAllowed, status: 405),
        // MissingDeviceToken, BadPath
        Rejected(label: "/3/device/", path: "/3/device/", reason: .missingDeviceToken, status: 400),
        Rejected(label: "/3/device", path: "/3/device", reason: .missingDeviceToken, status: 400),
        Rejected(label: "/3/devices/<token>", path: "/3/devices/" + token, reason: .badPath, status: 404),
        Rejected(label: "/2/device/<token>", path: "/2/device/" + token, reason: .badPath, status: 404),
        Rejected(label: "/3/device/<token>/extra", path: path + "/extra", reason: .badPath, status: 404),
        Rejected(label: "/3/device/<token>/", path: path + "/", reason: .badPath, status: 404),
        Rejected(label: "/", path: "/", reason: .badPath, status: 404),
        // MissingTopic
        Rejected(label: "no apns-topic", headers: headers(topic: nil), reason: .missingTopic, status: 400),
        Rejected(label: "empty apns-topic", headers: headers(topic: ""), reason: .missingTopic, status: 400),
        // BadCollapseId
        Rejected(
            label: "collapse id of 65 bytes",
            headers: headers([("apns-collapse-id", String(repeating: "c", count: 65))]),
            reason: .badCollapseId, status: 400),
        Rejected(
            label: "collapse id of 33 characters, 66 bytes",
            headers: headers([("apns-collapse-id", String(repeating: "é", count: 33))]), reason: .badCollapseId,
            status: 400),
        Rejected(
            label: "empty collapse id", headers: headers([("apns-collapse-id", "")]), reason: .badCollapseId,
            status: 400),
        // BadPriority (value)
        Rejected(label: "priority 11", headers: headers([("apns-priority", "11")]), reason: .badPriority, status: 400),
        Rejected(
            label: "priority 010", headers: headers([("apns-priority", "010")]), reason: .badPriority, status: 400),
        Rejected(
            label: "priority 'high'", headers: headers([("apns-priority", "high")]), reason: .badPriority, status: 400),
        // InvalidPushType
        Rejected(label: "push type Alert", headers: headers(pushType: "Alert"), reason: .invalidPushType, status: 400),
        Rejected(
            label: "push type notification", headers: headers(pushType: "notification"), reason: .invalidPushType,
            status: 400),
        Rejected(label: "empty push type", headers: headers(pushType: ""), reason: .invalidPushType, status: 400),
        // BadExpirationDate
        Rejected(
            label: "expiration -1", headers: headers([("apns-expiration", "-1")]), reason: .badExpirationDate,
            status: 400),
        Rejected(
            label: "expiration 1.5", headers: headers([("apns-expiration", "1.5")]), reason: .badExpirationDate,
            status: 400),
        Rejected(
            label: "expiration 'tomorrow'", headers: headers([("apns-expiration", "tomorrow")]),
            reason: .badExpirationDate, status: 400),
        // BadDeviceToken
        Rejected(label: "token not hex", path: "/3/device/xyz0", reason: .badDeviceToken, status: 400),
        Rejected(label: "token of odd length", path: "/3/device/abc", reason: .badDeviceToken, status: 400),
        Rejected(label: "token with a query", path: path + "?x=1", reason: .badDeviceToken, status: 400),
        // BadTopic
        Rejected(
            label: "alert to a .voip topic", headers: headers(topic: "com.example.app.voip"), reason: .badTopic,
            status: 400),
        Rejected(
            label: "voip to the bare bundle id", headers: headers(pushType: "voip"), reason: .badTopic, status: 400),
        Rejected(
            label: "liveactivity without its suffix", headers: headers(pushType: "liveactivity"), reason: .badTopic,
            status: 400),
        Rejected(
            label: "topic with a space", headers: headers(topic: "com.example app"), reason: .badTopic, status: 400),
        Rejected(
            label: "invalid default topic", headers: headers(topic: nil),
            policy: policy { $0.defaultTopic = "bad topic" },
            reason: .badTopic, status: 400),
        // TopicDisallowed
        Rejected(
            label: "bundle id not covered", policy: policy { $0.allowedBundleIDs = ["com.other.app"] },
            reason: .topicDisallowed, status: 400),
        Rejected(
            label: "voip topic of an uncovered bundle", headers: headers(topic: "com.other.app.voip", pushType: "voip"),
            policy: policy { $0.allowedBundleIDs = ["com.example.app"] }, reason: .topicDisallowed, status: 400),
        // BadPriority (background at 10)
        Rejected(
            label: "background at priority 10", headers: headers(pushType: "background", [("apns-priority", "10")]),
            body: backgroundBody, reason: .badPriority, status: 400),
        Rejected(
            label: "background without priority (APNs assumes 10)", headers: headers(pushType: "background"),
            body: backgroundBody, reason: .badPriority, status: 400),
        // BadPriority (Live Activity at 1)
        Rejected(
            label: "liveactivity at priority 1",
            headers: headers(topic: "com.example.app.push-type.liveactivity", pushType: "liveactivity", [("apns-priority", "1")]),
            reason: .badPriority, status: 400),
        // PayloadEmpty, not a JSON object, PayloadTooLarge
        Rejected(label: "empty body", body: [], reason: .payloadEmpty, status: 400, phase: .payload),
        Rejected(
            label: "malformed JSON (default reason)", body: Array(#"{"aps":"#.utf8), reason: .payloadEmpty, status: 400,
            phase: .payload),
        Rejected(
            label: "whitespace only", body: Array("  \n".utf8), reason: .payloadEmpty, status: 400, phase: .payload),
        Rejected(
            label: "JSON array, not an object", body: Array("[1,2]".utf8), reason: .payloadEmpty, status: 400,
            phase: .payload),
        Rejected(
            label: "malformed JSON, configured reason", body: Array("not json".utf8),
            policy: policy { $0.invalidJSONReason = .badRequestPayload }, reason: .badRequestPayload, status: 400,
            phase: .payload),
        Rejected(
            label: "alert of 4097 bytes", body: body(size: 4097), reason: .payloadTooLarge, status: 413, phase: .payload
        ),
        Rejected(
            label: "voip of 5121 bytes", headers: headers(topic: "com.example.app.voip", pushType: "voip"),
            body: body(size: 5121), reason: .payloadTooLarge, status: 413, phase: .payload),
        Rejected(
            label: "liveactivity of 4097 bytes",
            headers: headers(topic: "com.example.app.push-type.liveactivity", pushType: "liveactivity"),
            body: body(size: 4097), reason: .payloadTooLarge, status: 413, phase: .payload),
        Rejected(
            label: "empty body, no apns-id: the header phase's generated id", headers: headers(id: nil), body: [],
            reason: .payloadEmpty, status: 400, phase: .payload, echoes: false),
    ]

    /// Two problems in one request: the earlier check's reason wins.
    static let orderings: [Rejected] = [
        Rejected(
            label: "repeated header + bad apns-id", headers: headers(id: "x", [("x-a", "1"), ("x-a", "1")]),
            reason: .duplicateHeaders, status: 400, echoes: false),
        Rejected(
            label: "bad apns-id + bad path", path: "/nowhere", headers: headers(id: "nope"), reason: .badMessageId,
            status: 400, echoes: false),
        Rejected(
            label: "bad apns-id + GET", method: "GET", headers: headers(id: "nope"), reason: .badMessageId, status: 400,
            echoes: false),
        Rejected(label: "GET + bad path", method: "GET", path: "/nowhere", reason: .methodNotAllowed, status: 405),
        Rejected(
            label: "bad path + missing topic", path: "/nowhere", headers: headers(topic: nil), reason: .badPath,
            status: 404),
        Rejected(
            label: "missing token + missing topic", path: "/3/device/", headers: headers(topic: nil),
            reason: .missingDeviceToken, status: 400),
        Rejected(
            label: "missing topic + bad collapse id",
            headers: headers(topic: nil, [("apns-collapse-id", String(repeating: "c", count: 65))]),
            reason: .missingTopic, status: 400),
        Rejected(
            label: "bad collapse id + bad priority",
            headers: headers([("apns-priority", "7"), ("apns-collapse-id", String(repeating: "c", count: 65))]),
            reason: .badCollapseId, status: 400),
        Rejected(
            label: "bad priority + bad push type", headers: headers(pushType: "nope", [("apns-priority", "7")]),
            reason: .badPriority, status: 400),
        Rejected(
            label: "bad push type + bad expiration", headers: headers(pushType: "nope", [("apns-expiration", "x")]),
            reason: .invalidPushType, status: 400),
        Rejected(
            label: "bad expiration + bad token", path: "/3/device/zz", headers: headers([("apns-expiration", "x")]),
            reason: .badExpirationDate, status: 400),
        Rejected(
            label: "bad token + bad topic", path: "/3/device/zz", headers: headers(topic: "com.example.app.voip"),
            reason: .badDeviceToken, status: 400),
        Rejected(
            label: "bad topic + topic disallowed", headers: headers(topic: "com.other.app.voip"),
            policy: policy { $0.allowedBundleIDs = ["com.example.app"] }, reason: .badTopic, status: 400),
        Rejected(
            label: "topic disallowed + background at 10",
            headers: headers(topic: "com.other.app", pushType: "background"),
            body: backgroundBody, policy: policy { $0.allowedBundleIDs = ["com.example.app"] },
            reason: .topicDisallowed,
            status: 400),
        Rejected(
            label: "background at 10 + empty body", headers: headers(pushType: "background"), body: [],
            reason: .badPriority, status: 400),
        Rejected(
            label: "empty body is not JSON: PayloadEmpty", body: [],
            policy: policy { $0.invalidJSONReason = .badRequestPayload },
            reason: .payloadEmpty, status: 400, phase: .payload),
        Rejected(
            label: "malformed and too large: not JSON first", body: Array(repeating: UInt8(ascii: "x"), count: 5000),
            policy: policy { $0.invalidJSONReason = .badRequestPayload }, reason: .badRequestPayload, status: 400,
            phase: .payload),
    ]

    @Test(arguments: rejections + orderings)
    func rejected(_ row: Rejected) throws {
        let request = IncomingPushRequest(method: row.method, path: row.path, headers: row.headers, body: row.body)
        let rejection = try #require(Self.failure(DevicePushValidator.validate(request, policy: row.policy)))
        #expect(rejection.reason == row.reason)
        #expect(rejection.status == row.status)
        #expect(rejection.status == row.reason.status, "status must come from the reason table")
        let echoed = try #require(rejection.apnsID)
        if row.echoes {
            #expect(echoed == Self.id)
        } else {
            #expect(Self.isCanonicalLowercaseUUID(echoed), "\(echoed)")
            #expect(!row.headers.contains { $0.name.lowercased() == "apns-id" && $0.value.lowercased() == echoed })
        }

        // The two phases the emulator calls separately give the same answer.
        switch (DevicePushValidator.validateHeaders(request, policy: row.policy), row.phase) {
        case (.failure(let early), .headers):
            #expect(early.reason == row.reason)
            #expect(early.status == row.status)
            if row.echoes { #expect(early.apnsID == Self.id) }
        case (.success(let headers), .payload):
            let late = try #require(
                Self.failure(DevicePushValidator.validatePayload(headers, body: row.body, policy: row.policy)))
            #expect(late.reason == row.reason)
            #expect(late.apnsID == headers.apnsID, "the payload phase echoes the header phase's id, generated or not")
        case (.success, .headers):
            Issue.record("the header phase accepted what it should refuse")
        case (.failure(let early), .payload):
            Issue.record("the header phase refused what only the payload phase should: \(early)")
        }
    }

    /// Every device reason the validator can answer has a case.
    @Test func everyReasonHasACase() {
        let covered = Set((Self.rejections + Self.orderings).map(\.reason))
        let expected: Set<Reason> = [
            .duplicateHeaders, .badMessageId, .methodNotAllowed, .missingDeviceToken, .badPath, .missingTopic,
            .badCollapseId,
            .badPriority, .invalidPushType, .badExpirationDate, .badDeviceToken, .badTopic, .topicDisallowed,
            .payloadEmpty,
            .payloadTooLarge,
        ]
        #expect(expected.isSubset(of: covered), "missing: \(expected.subtracting(covered))")
    }

    // MARK: - Accepted pushes

    /// A request APNs accepts, and what the emulator records of it.
    struct Accepted: Sendable, CustomTestStringConvertible {
        let label: String
        var path = DevicePushValidatorTests.path
        let headers: [(name: String, value: String)]
        var body = DevicePushValidatorTests.alertBody
        var policy = DevicePushPolicy()
        let pushType: PushType
        let topic: String?
        var priority = Priority.immediate
        var testDescription: String { label }
    }

    static let acceptances: [Accepted] = [
        Accepted(label: "alert", headers: headers(), pushType: .alert, topic: "com.example.app"),
        Accepted(
            label: "alert, push type absent", headers: headers(pushType: nil), pushType: .alert,
            topic: "com.example.app"),
        Accepted(
            label: "alert at 5", headers: headers([("apns-priority", "5")]), pushType: .alert, topic: "com.example.app",
            priority: .powerConsiderate),
        Accepted(
            label: "alert at 1", headers: headers([("apns-priority", "1")]), pushType: .alert, topic: "com.example.app",
            priority: .low),
        Accepted(
            label: "alert of 4096 bytes", headers: headers(), body: body(size: 4096), pushType: .alert,
            topic: "com.example.app"),
        Accepted(
            label: "background at 5", headers: headers(pushType: "background", [("apns-priority", "5")]),
            body: backgroundBody, pushType: .background, topic: "com.example.app", priority: .powerConsiderate),
        Accepted(
            label: "background at 10, policy allows it",
            headers: headers(pushType: "background", [("apns-priority", "10")]),
            body: backgroundBody, policy: policy { $0.backgroundPriority10IsRejected = false }, pushType: .background,
            topic: "com.example.app"),
        Accepted(
            label: "liveactivity at priority 1, policy allows it",
            headers: headers(topic: "com.example.app.push-type.liveactivity", pushType: "liveactivity", [("apns-priority", "1")]),
            policy: policy { $0.liveActivityPriority1IsRejected = false }, pushType: .liveactivity,
            topic: "com.example.app.push-type.liveactivity", priority: .low),
        Accepted(
            label: "background without priority, policy allows it", headers: headers(pushType: "background"),
            body: backgroundBody, policy: policy { $0.backgroundPriority10IsRejected = false }, pushType: .background,
            topic: "com.example.app"),
        Accepted(
            label: "voip of 5120 bytes", headers: headers(topic: "com.example.app.voip", pushType: "voip"),
            body: body(size: 5120), pushType: .voip, topic: "com.example.app.voip"),
        Accepted(
            label: "location", headers: headers(topic: "com.example.app.location-query", pushType: "location"),
            body: Array("{}".utf8), pushType: .location, topic: "com.example.app.location-query"),
        Accepted(
            label: "complication", headers: headers(topic: "com.example.app.complication", pushType: "complication"),
            pushType: .complication, topic: "com.example.app.complication"),
        Accepted(
            label: "fileprovider",
            headers: headers(topic: "com.example.app.pushkit.fileprovider", pushType: "fileprovider"),
            body: Array(#"{"container-identifier":"x"}"#.utf8), pushType: .fileprovider,
            topic: "com.example.app.pushkit.fileprovider"),
        Accepted(
            label: "mdm", headers: headers(topic: "com.apple.mgmt.External.0b5ed8f0", pushType: "mdm"),
            body: Array(#"{"mdm":"magic"}"#.utf8), pushType: .mdm, topic: "com.apple.mgmt.External.0b5ed8f0"),
        Accepted(
            label: "mdm, any topic", headers: headers(topic: "com.example.app.voip", pushType: "mdm"),
            body: Array(#"{"mdm":"magic"}"#.utf8), pushType: .mdm, topic: "com.example.app.voip"),
        Accepted(
            label: "liveactivity, 160-digit token", path: "/3/device/" + String(repeating: "0f", count: 80),
            headers: headers(topic: "com.example.app.push-type.liveactivity", pushType: "liveactivity"),
            body: Array(#"{"aps":{"event":"update","timestamp":1700000000,"content-state":{}}}"#.utf8),
            pushType: .liveactivity, topic: "com.example.app.push-type.liveactivity"),
        Accepted(
            label: "pushtotalk",
            headers: headers(
                topic: "com.example.app.voip-ptt", pushType: "pushtotalk",
                [("apns-expiration", "0")]),
            body: Array("{}".utf8), pushType: .pushtotalk, topic: "com.example.app.voip-ptt"),
        Accepted(
            label: "widgets", headers: headers(topic: "com.example.app.push-type.widgets", pushType: "widgets"),
            body: Array(#"{"aps":{"content-changed":true}}"#.utf8), pushType: .widgets,
            topic: "com.example.app.push-type.widgets"),
        Accepted(
            label: "controls", headers: headers(topic: "com.example.app.push-type.controls", pushType: "controls"),
            body: Array(#"{"aps":{"content-changed":true}}"#.utf8), pushType: .controls,
            topic: "com.example.app.push-type.controls"),
        Accepted(
            label: "uppercase token", path: "/3/device/" + token.uppercased(), headers: headers(), pushType: .alert,
            topic: "com.example.app"),
        Accepted(
            label: "JSON object with whitespace around it", headers: headers(), body: Array(" {\"aps\":{}}\n".utf8),
            pushType: .alert, topic: "com.example.app"),
        Accepted(
            label: "default topic", headers: headers(topic: nil),
            policy: policy { $0.defaultTopic = "com.example.app" }, pushType: .alert, topic: "com.example.app"),
        Accepted(
            label: "default topic, voip gets its suffix", headers: headers(topic: nil, pushType: "voip"),
            policy: policy { $0.defaultTopic = "com.example.app" }, pushType: .voip, topic: "com.example.app.voip"),
        Accepted(
            label: "default topic with a suffix, for its push type", headers: headers(topic: nil, pushType: "voip"),
            policy: policy { $0.defaultTopic = "com.example.app.voip" }, pushType: .voip, topic: "com.example.app.voip"),
        Accepted(
            label: "apns-topic wins over the default", headers: headers(topic: "com.example.other"),
            policy: policy { $0.defaultTopic = "com.example.app" }, pushType: .alert, topic: "com.example.other"),
        Accepted(
            label: "no topic, none required", headers: headers(topic: nil), policy: policy { $0.topicRequired = false },
            pushType: .alert, topic: nil),
        Accepted(
            label: "allowed bundle id, voip topic", headers: headers(topic: "com.example.app.voip", pushType: "voip"),
            policy: policy { $0.allowedBundleIDs = ["com.example.app", "com.example.other"] }, pushType: .voip,
            topic: "com.example.app.voip"),
        Accepted(
            label: "allowed bundle id, alert", headers: headers(),
            policy: policy { $0.allowedBundleIDs = ["com.example.app"] }, pushType: .alert, topic: "com.example.app"),
    ]

    @Test(arguments: acceptances)
    func accepted(_ row: Accepted) throws {
        let request = IncomingPushRequest(method: "POST", path: row.path, headers: row.headers, body: row.body)
        let push = try DevicePushValidator.validate(request, policy: row.policy).get()
        #expect(push.pushType == row.pushType)
        #expect(push.topic?.value == row.topic)
        #expect(push.priority == row.priority)
        #expect(push.token.hex == String(row.path.dropFirst("/3/device/".count)).lowercased())
        #expect(push.apnsID == Self.id)
        #expect(push.payload == row.body)

        // The two phases agree with the one-call form.
        let headers = try DevicePushValidator.validateHeaders(request, policy: row.policy).get()
        let phased = try DevicePushValidator.validatePayload(headers, body: row.body, policy: row.policy).get()
        #expect(phased == push)
    }

    @Test func everyPushTypeIsAcceptedWithItsSuffix() {
        #expect(Set(Self.acceptances.map(\.pushType)) == Set(PushType.allCases))
    }

    // MARK: - apns-id

    @Test func uppercaseApnsIDIsAcceptedAndAnsweredInLowercase() throws {
        let upper = Self.id.uppercased()
        let request = IncomingPushRequest(
            method: "POST", path: Self.path, headers: Self.headers(id: upper), body: Self.alertBody)
        let push = try DevicePushValidator.validate(request, policy: DevicePushPolicy()).get()
        #expect(push.apnsID == Self.id)

        let refused = IncomingPushRequest(
            method: "GET", path: Self.path, headers: Self.headers(id: upper), body: Self.alertBody)
        #expect(Self.failure(DevicePushValidator.validate(refused, policy: DevicePushPolicy()))?.apnsID == Self.id)
    }

    @Test func absentApnsIDIsGenerated() throws {
        let request = IncomingPushRequest(
            method: "POST", path: Self.path, headers: Self.headers(id: nil), body: Self.alertBody)
        let first = try DevicePushValidator.validate(request, policy: DevicePushPolicy()).get()
        let second = try DevicePushValidator.validate(request, policy: DevicePushPolicy()).get()
        #expect(Self.isCanonicalLowercaseUUID(first.apnsID), "\(first.apnsID)")
        #expect(Self.isCanonicalLowercaseUUID(second.apnsID), "\(second.apnsID)")
        #expect(first.apnsID != second.apnsID)

        let refused = IncomingPushRequest(
            method: "GET", path: Self.path, headers: Self.headers(id: nil), body: Self.alertBody)
        let rejection = try #require(Self.failure(DevicePushValidator.validate(refused, policy: DevicePushPolicy())))
        #expect(Self.isCanonicalLowercaseUUID(rejection.apnsID ?? ""), "\(rejection)")
    }

    // MARK: - What the header phase hands on

    @Test func validatedHeadersCarryEveryField() throws {
        let request = IncomingPushRequest(
            method: "POST", path: Self.path,
            headers: Self.headers([
                ("apns-expiration", "1700000000"), ("apns-collapse-id", "thread-1"), ("apns-priority", "5"),
            ]),
            body: Self.alertBody)
        let headers = try DevicePushValidator.validateHeaders(request, policy: DevicePushPolicy()).get()
        #expect(headers.token.hex == Self.token)
        #expect(headers.topic?.value == "com.example.app")
        #expect(headers.pushType == .alert)
        #expect(headers.priority == .powerConsiderate)
        #expect(headers.expiration == .at(unixSeconds: 1_700_000_000))
        #expect(headers.collapseID?.value == "thread-1")
        #expect(headers.apnsID == Self.id)
        #expect(headers.authorization == "bearer x.y.z")

        let push = try DevicePushValidator.validatePayload(headers, body: Self.alertBody, policy: DevicePushPolicy())
            .get()
        #expect(push.expiration == .at(unixSeconds: 1_700_000_000))
        #expect(push.collapseID?.value == "thread-1")
    }

    @Test func absentOptionalHeadersStayAbsent() throws {
        let request = IncomingPushRequest(
            method: "POST", path: Self.path, headers: [("apns-topic", "com.example.app")], body: Self.alertBody)
        let headers = try DevicePushValidator.validateHeaders(request, policy: DevicePushPolicy()).get()
        #expect(headers.pushType == .alert)
        #expect(headers.priority == .immediate)
        #expect(headers.expiration == nil)
        #expect(headers.collapseID == nil)
        #expect(headers.authorization == nil)
        #expect(Self.isCanonicalLowercaseUUID(headers.apnsID))
    }

    @Test func expirationZeroMeansImmediately() throws {
        let request = IncomingPushRequest(
            method: "POST", path: Self.path, headers: Self.headers([("apns-expiration", "0")]), body: Self.alertBody)
        #expect(try DevicePushValidator.validate(request, policy: DevicePushPolicy()).get().expiration == .immediately)
    }

    @Test func defaultPolicyIsAppleLike() {
        let policy = DevicePushPolicy()
        #expect(policy.topicRequired)
        #expect(policy.allowedBundleIDs == nil)
        #expect(policy.defaultTopic == nil)
        #expect(policy.backgroundPriority10IsRejected)
        #expect(policy.invalidJSONReason == .payloadEmpty)
    }

    @Test func rejectionDescription() {
        let rejection = PushRejection(status: 400, reason: .badTopic, apnsID: Self.id)
        #expect(rejection.description == "400 BadTopic (apns-id \(Self.id))")
        #expect(
            PushRejection(status: 405, reason: .methodNotAllowed, apnsID: nil).description == "405 MethodNotAllowed")
    }

    // MARK: - Helpers

    static func failure<Success>(_ result: Result<Success, PushRejection>) -> PushRejection? {
        if case .failure(let rejection) = result { return rejection }
        return nil
    }
}
