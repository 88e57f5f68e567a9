import APNs
import Gateway
import Testing

/// `POST /v1/apps/{bundle-id}/notifications` end to end: curl over HTTP/1.1 and HTTP/2 against both
/// stores. Nothing is sent here: creation, counting, idempotency, lint and refusals.
@Suite(.timeLimit(.minutes(3)))
struct GatewayNotificationAPITests {
    typealias API = NotificationAPI

    @Test(arguments: StoreKind.allCases, WireProtocol.allCases)
    func everyRecipientFormIsAcceptedWithItsRecipientCount(_ kind: StoreKind, _ wire: WireProtocol) async throws {
        let announced = AnnouncedNotifications()
        try await GatewayAPIFixture.with(kind, configure: announced.install) { gateway in
            try await API.seed(gateway.store)
            let (t1, t3, t9) = (try token(1).hex, try token(3).hex, try token(9).hex)
            let cases: [(to: String, payload: String, recipients: Int, stored: NotificationRequest.Recipients)] = [
                // Distinct tokens (1 twice), less the pruned 3; the unknown 9 is sent as given.
                (
                    #"{"tokens":["\#(t1)","\#(t1.uppercased())","\#(t3)","\#(t9)"]}"#, API.alert, 2,
                    .tokens([try token(1), try token(3), try token(9)])
                ),
                // alice's two devices; bob's one is pruned; nobody has none.
                (#"{"users":["alice","bob","nobody","alice"]}"#, API.alert, 2, .users(["alice", "bob", "nobody"])),
                // Device 2 carries both tags and counts once; 3 is pruned.
                (#"{"tags":["news","beta"]}"#, API.alert, 2, .tags(["news", "beta"])),
                (#"{"activity":"act-1"}"#, API.update, 1, .activity("act-1")),
                (#"{"activity":"act-unknown"}"#, API.update, 0, .activity("act-unknown")),
                (
                    #"{"push-to-start":{"users":["alice","bob"],"attributes-type":"Match"}}"#, API.start, 1,
                    .pushToStart(users: ["alice", "bob"], attributesType: "Match")
                ),
                (#"{"channel":"\#(API.channel)"}"#, API.update, 1, .channel(try ChannelID(API.channel))),
            ]
            for (to, payload, recipients, stored) in cases {
                let answer = try await gateway.request(
                    "POST", API.path, key: gateway.send, body: API.body(to: to, payload: payload), over: wire)
                #expect(answer.status == 202 && answer.version == wire.curlVersion, "\(to): \(answer.output)")
                #expect(Set(answer.json?.objectValue?.keys ?? []) == ["id", "recipients"], "\(to)")
                #expect(answer.json?["recipients"]?.intValue == recipients, "\(to): \(String(describing: answer.json))")
                let id = try #require(answer.json?["id"]?.stringValue, "\(to)")
                let notification = try #require(try await gateway.store.notification(id: id))
                #expect(notification.request.to == stored && notification.state == .sending)
                #expect(notification.request.pushType == (stored.isLiveActivity ? .liveactivity : .alert))
                #expect(announced.all.last == id, "the hook hears of \(to)")
            }
            #expect(announced.all.count == cases.count)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theBodyBecomesTheStoredRequest(_ kind: StoreKind) async throws {
        try await GatewayAPIFixture.with(kind) { gateway in
            let sendAt = GatewayConfiguration.systemMillisecondClock() + 3_600_000
            let body = API.body(
                to: #"{"tags":["news"]}"#, payload: #"{"aps":{"content-available":1},"job":7}"#,
                #""push-type":"background","priority":5,"expiration":0,"collapse-id":"c1","send-at":\#(sendAt),"#
                    + #""environment":"sandbox""#)
            let answer = try await gateway.request("POST", API.path, key: gateway.admin, body: body, over: .http2)
            #expect(answer.status == 202, "\(answer.output)")
            let id = try #require(answer.json?["id"]?.stringValue)
            let stored = try #require(try await gateway.store.notification(id: id))
            #expect(
                stored.request
                    == NotificationRequest(
                        bundleID: GatewayAPIFixture.app, to: .tags(["news"]), pushType: .background,
                        priority: .powerConsiderate, expiration: .immediately, collapseID: try CollapseID("c1"),
                        payload: Array(#"{"aps":{"content-available":1},"job":7}"#.utf8), sendAt: sendAt,
                        environment: .sandbox))
            #expect(stored.state == .scheduled)
        }
    }

    @Test(arguments: StoreKind.allCases, WireProtocol.allCases)
    func anIdempotencyKeyReturnsTheFirstNotification(_ kind: StoreKind, _ wire: WireProtocol) async throws {
        let announced = AnnouncedNotifications()
        try await GatewayAPIFixture.with(kind, configure: announced.install) { gateway in
            try await API.seed(gateway.store)
            let body = API.body(to: #"{"users":["alice"]}"#)
            let first = try await gateway.request(
                "POST", API.path, key: gateway.send, body: body, headers: ["idempotency-key: order-42"], over: wire)
            let again = try await gateway.request(
                "POST", API.path, key: gateway.admin, body: API.body(to: #"{"tags":["beta"]}"#),
                headers: ["idempotency-key: order-42"], over: wire)
            #expect(first.status == 202 && again.status == 202, "\(first.output) \(again.output)")
            #expect(first.json == again.json && first.json?["recipients"]?.intValue == 2)
            let other = try await gateway.request(
                "POST", API.path, key: gateway.send, body: body, headers: ["idempotency-key: order-43"], over: wire)
            #expect(other.status == 202 && other.json?["id"] != first.json?["id"])
            #expect(announced.all.count == 2, "a repeat announces nothing")
            #expect(try await API.unexpanded(gateway.store).count == 2, "a repeat stores nothing")
            // Once expanded, a repeat reports the rows made.
            let id = try #require(first.json?["id"]?.stringValue)
            try await gateway.store.expandFully(id: id, now: Clock.start)
            let expanded = try await gateway.request(
                "POST", API.path, key: gateway.send, body: body, headers: ["idempotency-key: order-42"], over: wire)
            #expect(expanded.json == first.json)
            let bad = try await gateway.request(
                "POST", API.path, key: gateway.send, body: body,
                headers: ["idempotency-key: " + String(repeating: "k", count: 201)], over: wire)
            #expect(bad.status == 400 && bad.errorField == "idempotency-key", "\(bad.output)")
        }
    }

    @Test(arguments: StoreKind.allCases, WireProtocol.allCases)
    func lintErrorsAre422WithTheFindingsAndStoreNothing(_ kind: StoreKind, _ wire: WireProtocol) async throws {
        let announced = AnnouncedNotifications()
        try await GatewayAPIFixture.with(kind, configure: announced.install) { gateway in
            let big = #"{"aps":{"alert":"x"},"blob":""# + String(repeating: "x", count: 4_200) + #""}"#
            let cases: [(body: String, rule: String, path: String)] = [
                // A background push with an alert and no content-available.
                (
                    API.body(to: #"{"tags":["a"]}"#, payload: API.alert, #""push-type":"background","priority":5"#),
                    "APS-BG-CONTENT-AVAILABLE", "payload.aps.content-available"
                ),
                (API.body(to: #"{"tags":["a"]}"#, payload: big), "PAYLOAD-TOO-LARGE", "payload"),
                (
                    API.body(to: #"{"tags":["a"]}"#, payload: API.alert, #""push-type":"background""#),
                    "APS-BG-PRIORITY", "priority"
                ),
            ]
            for (body, rule, path) in cases {
                let answer = try await gateway.request("POST", API.path, key: gateway.send, body: body, over: wire)
                #expect(answer.status == 422 && answer.errorCode == "lint-failed", "\(rule): \(answer.output)")
                #expect(Set(answer.json?.objectValue?.keys ?? []) == ["error", "findings"])
                let findings = answer.json?["findings"]?.arrayValue ?? []
                let finding = findings.first { $0["rule"]?.stringValue == rule }
                #expect(finding?["path"]?.stringValue == path, "\(rule): \(findings)")
                #expect(finding?["severity"]?.stringValue == "error")
                #expect(answer.errorField == findings.first?["path"]?.stringValue)
            }
            // Warnings pass: mutable-content without an alert.
            let warned = try await gateway.request(
                "POST", API.path, key: gateway.send,
                body: API.body(to: #"{"tags":["a"]}"#, payload: #"{"aps":{"mutable-content":1,"badge":1}}"#),
                over: wire)
            #expect(warned.status == 202, "\(warned.output)")
            #expect(try await API.unexpanded(gateway.store).count == 1, "refused notifications are not stored")
            #expect(announced.all.count == 1)
        }
    }

    /// Bodies refused with 400, each naming its field.
    static let badBodies: [(body: String, field: String)] = [
        ("[1]", "body"),
        ("{", "body"),
        (API.body(to: #"{"tokens":["abcd","zz"]}"#), "to.tokens[1]"),
        (API.body(to: #"{"tokens":["abc"]}"#), "to.tokens[0]"),
        (API.body(to: #"{"tokens":[]}"#), "to.tokens"),
        (API.body(to: #"{"users":["a",""]}"#), "to.users[1]"),
        (API.body(to: #"{"tags":"news"}"#), "to.tags"),
        (API.body(to: #"{"tags":["a"],"users":["b"]}"#), "to"),
        (API.body(to: #"{}"#), "to"),
        (API.body(to: #"{"devices":["a"]}"#), "to.devices"),
        (API.body(to: #"{"push-to-start":{"users":["a"]}}"#, payload: API.start), "to.push-to-start.attributes-type"),
        (API.body(to: #"{"push-to-start":{"users":["a"],"type":"M"}}"#), "to.push-to-start.type"),
        (API.body(to: #"{"channel":"not base64!"}"#), "to.channel"),
        (#"{"payload":{}}"#, "to"),
        (#"{"to":{"tags":["a"]}}"#, "payload"),
        (#"{"to":{"tags":["a"]},"payload":[1]}"#, "payload"),
        (API.body(to: #"{"tags":["a"]}"#, #""pushType":"alert""#), "pushType"),
        (API.body(to: #"{"tags":["a"]}"#, #""push-type":"banner""#), "push-type"),
        (API.body(to: #"{"activity":"a1"}"#, #""push-type":"alert""#), "push-type"),
        (API.body(to: #"{"tags":["a"]}"#, #""priority":7"#), "priority"),
        (API.body(to: #"{"tags":["a"]}"#, #""priority":"10""#), "priority"),
        (API.body(to: #"{"tags":["a"]}"#, #""expiration":-1"#), "expiration"),
        (API.body(to: #"{"tags":["a"]}"#, #""expiration":1.5"#), "expiration"),
        (
            API.body(to: #"{"tags":["a"]}"#, #""collapse-id":""# + String(repeating: "c", count: 65) + #"""#),
            "collapse-id"
        ),
        (API.body(to: #"{"tags":["a"]}"#, #""send-at":1767225600"#), "send-at"),
        (API.body(to: #"{"tags":["a"]}"#, #""environment":"staging""#), "environment"),
        (API.body(to: #"{"tags":["a"]}"#, #""priority":5,"priority":10"#), "priority"),
    ]

    @Test(arguments: StoreKind.allCases, WireProtocol.allCases)
    func badBodiesAre400NamingTheFieldAndStoreNothing(_ kind: StoreKind, _ wire: WireProtocol) async throws {
        let announced = AnnouncedNotifications()
        try await GatewayAPIFixture.with(kind, configure: announced.install) { gateway in
            for (body, field) in Self.badBodies {
                let answer = try await gateway.request("POST", API.path, key: gateway.send, body: body, over: wire)
                #expect(answer.status == 400 && answer.errorCode == "bad-request", "\(body): \(answer.output)")
                #expect(answer.errorField == field, "\(body): \(String(describing: answer.json))")
            }
            // An environment the app lacks.
            let sandboxOnly = try await gateway.request(
                "POST", "/v1/apps/\(GatewayAPIFixture.sandboxApp)/notifications", key: gateway.admin,
                body: API.body(to: #"{"tags":["a"]}"#, #""environment":"production""#), over: wire)
            #expect(sandboxOnly.status == 400 && sandboxOnly.errorField == "environment", "\(sandboxOnly.output)")
            #expect(try await API.unexpanded(gateway.store).isEmpty && announced.all.isEmpty)
        }
    }
}

extension NotificationRequest.Recipients {
    fileprivate var isLiveActivity: Bool {
        switch self {
        case .activity, .pushToStart, .channel: true
        case .tokens, .users, .tags: false
        }
    }
}
