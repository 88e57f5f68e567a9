import APNs
import Gateway
import Testing

/// `GET`/`DELETE /v1/notifications/{id}`, its deliveries page by page, `POST /v1/lint`, and who may
/// see what: curl over HTTP/1.1 and HTTP/2 against both stores. Delivery rows are made and settled
/// through the store (no sending here).
@Suite(.timeLimit(.minutes(3)))
struct GatewayNotificationReadTests {
    typealias API = NotificationAPI

    static let notificationFields: Set = ["id", "bundle-id", "state", "counts", "recipients", "created-at"]
    static let deliveryFields: Set = [
        "notification-id", "token", "kind", "environment", "apns-id", "apns-unique-id", "status", "reason", "attempts",
        "last-attempt-at",
    ]

    /// Creates a notification to tokens 1-5 through the API, expands it, and settles deliveries:
    /// 1 and 2 succeed, 3 fails (BadDeviceToken), 4 waits for a retry, 5 is untouched. Returns its id.
    static func settledNotification(_ gateway: GatewayAPIFixture, over wire: WireProtocol) async throws
        -> NotificationID
    {
        let tokens = try (1...5).map { #""\#(try token($0).hex)""# }.joined(separator: ",")
        let created = try await gateway.request(
            "POST", API.path, key: gateway.send, body: API.body(to: #"{"tokens":[\#(tokens)]}"#), over: wire)
        #expect(created.status == 202 && created.json?["recipients"]?.intValue == 5, "\(created.output)")
        let id = try #require(created.json?["id"]?.stringValue)
        try await gateway.store.expandFully(id: id, now: Clock.start)
        let rows = try await gateway.store.allDeliveries(id)
        try #require(rows.count == 5)
        try await gateway.store.recordOutcomes(
            [
                DeliveryOutcome(deliveryID: rows[0].id, result: .succeeded(apnsUniqueID: "u-1")),
                DeliveryOutcome(deliveryID: rows[1].id, result: .succeeded(apnsUniqueID: nil)),
                DeliveryOutcome(deliveryID: rows[2].id, result: .failed(reason: .badDeviceToken, timestamp: nil)),
                DeliveryOutcome(deliveryID: rows[3].id, result: .retryable(reason: "ServiceUnavailable")),
            ], backoff: DeliveryBackoff(), now: Clock.start + 5)
        return id
    }

    @Test(arguments: StoreKind.allCases, WireProtocol.allCases)
    func aNotificationIsReadPagedAndCancelled(_ kind: StoreKind, _ wire: WireProtocol) async throws {
        try await GatewayAPIFixture.with(kind) { gateway in
            let id = try await Self.settledNotification(gateway, over: wire)
            let read = try await gateway.request("GET", "/v1/notifications/\(id)", key: gateway.send, over: wire)
            #expect(read.status == 200, "\(read.output)")
            let notification = try #require(read.json)
            #expect(Set(notification.objectValue?.keys ?? []) == Self.notificationFields)
            #expect(notification["id"]?.stringValue == id && notification["state"]?.stringValue == "sending")
            #expect(notification["bundle-id"]?.stringValue == GatewayAPIFixture.app)
            #expect(notification["recipients"]?.intValue == 5 && (notification["created-at"]?.intValue ?? 0) > 0)
            #expect(
                notification["counts"]
                    == [
                        "succeeded": 2, "failed": 1, "pending": 2, "cancelled": 0, "by-reason": ["BadDeviceToken": 1],
                    ])

            // Pages of two: 2 + 2 + 1, each cursor the last page's.
            var seen: [JSONValue] = []
            var cursor: String?
            var pages = 0
            repeat {
                let query = "?limit=2" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await gateway.request(
                    "GET", "/v1/notifications/\(id)/deliveries\(query)", key: gateway.send, over: wire)
                #expect(page.status == 200, "\(page.output)")
                let deliveries = page.json?["deliveries"]?.arrayValue ?? []
                #expect(deliveries.count == (pages < 2 ? 2 : 1))
                seen += deliveries
                cursor = page.json?["next-cursor"]?.stringValue
                #expect(cursor != nil || page.json?["next-cursor"]?.isNull == true)
                pages += 1
            } while cursor != nil && pages < 10
            #expect(pages == 3 && seen.count == 5)
            #expect(seen.allSatisfy { Set($0.objectValue?.keys ?? []) == Self.deliveryFields })
            #expect(try seen.map { $0["token"]?.stringValue ?? "" } == (1...5).map { try token($0).hex })
            #expect(
                seen.map { $0["status"]?.stringValue } == ["succeeded", "succeeded", "failed", "pending", "pending"])
            #expect(seen[0]["apns-unique-id"]?.stringValue == "u-1" && seen[1]["apns-unique-id"]?.isNull == true)
            #expect(seen[2]["reason"]?.stringValue == "BadDeviceToken" && seen[3]["attempts"]?.intValue == 1)
            #expect(
                seen[0]["last-attempt-at"]?.intValue == Clock.start + 5 && seen[4]["last-attempt-at"]?.isNull == true)
            #expect(
                seen.allSatisfy {
                    $0["kind"]?.stringValue == "device" && $0["environment"]?.stringValue == "production"
                })
            #expect(Set(seen.compactMap { $0["apns-id"]?.stringValue }).count == 5)
            let all = try await gateway.request(
                "GET", "/v1/notifications/\(id)/deliveries", key: gateway.admin, over: wire)
            #expect(all.json?["deliveries"]?.arrayValue == seen && all.json?["next-cursor"]?.isNull == true)

            for (query, field) in [
                ("cursor=abc", "cursor"), ("cursor=", "cursor"), ("cursor=-1", "cursor"), ("limit=0", "limit"),
                ("limit=1001", "limit"), ("limit=ten", "limit"), ("page=2", "page"), ("limit=1&limit=2", "limit"),
            ] {
                let bad = try await gateway.request(
                    "GET", "/v1/notifications/\(id)/deliveries?\(query)", key: gateway.send, over: wire)
                #expect(bad.status == 400 && bad.errorField == field, "\(query): \(bad.output)")
            }

            let cancelled = try await gateway.request(
                "DELETE", "/v1/notifications/\(id)", key: gateway.send, over: wire)
            #expect(cancelled.status == 200, "\(cancelled.output)")
            #expect(cancelled.json?["state"]?.stringValue == "cancelled")
            #expect(cancelled.json?["counts"]?["cancelled"]?.intValue == 2)
            #expect(cancelled.json?["counts"]?["pending"]?.intValue == 0)
            #expect(cancelled.json?["counts"]?["succeeded"]?.intValue == 2)
            let after = try await gateway.store.allDeliveries(id).map(\.status)
            #expect(after == [.succeeded, .succeeded, .failed, .cancelled, .cancelled])
            // Cancelling again changes nothing.
            let again = try await gateway.request("DELETE", "/v1/notifications/\(id)", key: gateway.send, over: wire)
            #expect(again.status == 200 && again.json == cancelled.json)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aScheduledNotificationShowsItsSendAt(_ kind: StoreKind) async throws {
        try await GatewayAPIFixture.with(kind) { gateway in
            let sendAt = GatewayConfiguration.systemMillisecondClock() + 3_600_000
            let created = try await gateway.request(
                "POST", API.path, key: gateway.send, body: API.body(to: #"{"tags":["a"]}"#, #""send-at":\#(sendAt)"#),
                over: .http1)
            let id = try #require(created.json?["id"]?.stringValue, "\(created.output)")
            let read = try await gateway.request("GET", "/v1/notifications/\(id)", key: gateway.send, over: .http2)
            #expect(read.json?["state"]?.stringValue == "scheduled" && read.json?["send-at"]?.intValue == sendAt)
            #expect(read.json?["recipients"]?.intValue == 0)
            let cancelled = try await gateway.request(
                "DELETE", "/v1/notifications/\(id)", key: gateway.send, over: .http1)
            #expect(cancelled.json?["state"]?.stringValue == "cancelled")
            #expect(try await gateway.store.startDueNotifications(now: sendAt + 1, limit: 10).isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases, WireProtocol.allCases)
    func keysSeeOnlyWhatTheyMay(_ kind: StoreKind, _ wire: WireProtocol) async throws {
        try await GatewayAPIFixture.with(kind) { gateway in
            let created = try await gateway.request(
                "POST", API.path, key: gateway.send, body: API.body(to: #"{"tags":["a"]}"#), over: wire)
            let id = try #require(created.json?["id"]?.stringValue, "\(created.output)")
            let body = API.body(to: #"{"tags":["a"]}"#)
            let routes = [
                ("GET", "/v1/notifications/\(id)"), ("GET", "/v1/notifications/\(id)/deliveries"),
                ("DELETE", "/v1/notifications/\(id)"),
            ]
            for (method, path) in routes {
                let none = try await gateway.request(method, path, key: nil, over: wire)
                #expect(none.status == 401 && none.errorCode == "unauthorized", "\(method) \(path)")
                let register = try await gateway.request(method, path, key: gateway.register, over: wire)
                #expect(register.status == 403 && register.errorCode == "forbidden", "\(method) \(path)")
                // A key of another app learns nothing: the same answer as for an id that does not exist.
                let other = try await gateway.request(method, path, key: gateway.otherAppSend, over: wire)
                let missing = try await gateway.request(
                    method, path.replacingOccurrences(of: id, with: "no-such-id"), key: gateway.admin, over: wire)
                #expect(other.status == 404 && other.errorCode == "unknown-notification" && other.errorField == "id")
                #expect(missing.status == 404 && missing.errorCode == "unknown-notification")
                #expect(other.json?["error"]?["message"]?.stringValue?.contains(id) == true)
            }
            let still = try await gateway.store.notification(id: id)
            #expect(still?.state == .sending, "the refused DELETEs cancelled nothing")

            let refusals: [(key: String?, path: String, status: Int, code: String)] = [
                (nil, API.path, 401, "unauthorized"),
                (gateway.register, API.path, 403, "forbidden"),
                (gateway.otherAppSend, API.path, 403, "forbidden"),
                (gateway.admin, "/v1/apps/com.example.nope/notifications", 404, "unknown-app"),
                (nil, "/v1/lint", 401, "unauthorized"),
                (gateway.register, "/v1/lint", 403, "forbidden"),
            ]
            for (key, path, status, code) in refusals {
                let answer = try await gateway.request("POST", path, key: key, body: body, over: wire)
                #expect(answer.status == status && answer.errorCode == code, "\(path): \(answer.output)")
            }
            let large = try await gateway.request(
                "POST", API.path, key: gateway.send,
                body: API.body(to: #"{"tags":["a"]}"#, #""pad":""# + String(repeating: "p", count: 8_000) + #"""#),
                over: wire)
            #expect(large.status == 413 && large.errorCode == "body-too-large", "\(large.output)")
            #expect(try await API.unexpanded(gateway.store) == [id], "only the first notification is stored")
        }
    }

    @Test(arguments: WireProtocol.allCases)
    func lintAnswersTheFindings(_ wire: WireProtocol) async throws {
        try await GatewayAPIFixture.with(.memory) { gateway in
            let clean = try await gateway.request(
                "POST", "/v1/lint", key: gateway.send,
                body: #"{"payload":\#(API.alert),"push-type":"alert","topic":"com.example.app","priority":10}"#,
                over: wire)
            #expect(clean.status == 200, "\(clean.output)")
            #expect(clean.json?["valid"] == true && clean.json?["findings"] == [])
            #expect(clean.json?["push-type"]?.stringValue == "alert" && clean.json?["payload-limit"]?.intValue == 4096)

            let bad = try await gateway.request(
                "POST", "/v1/lint", key: gateway.admin,
                body: #"{"payload":{"aps":{"alert":"hi"}},"push-type":"background","priority":"7"}"#, over: wire)
            #expect(bad.status == 200 && bad.json?["valid"] == false, "\(bad.output)")
            let findings = bad.json?["findings"]?.arrayValue ?? []
            let paths = Set(findings.compactMap { $0["path"]?.stringValue })
            #expect(paths.contains("priority") && paths.contains("payload.aps.content-available"), "\(paths)")
            #expect(findings.first?["severity"]?.stringValue == "error")

            let broadcast = try await gateway.request(
                "POST", "/v1/lint", key: gateway.send,
                body: #"{"payload":\#(API.update),"push-type":"liveactivity","destination":"broadcast"}"#,
                over: wire)
            #expect(
                broadcast.json?["valid"] == true && broadcast.json?["payload-limit"]?.intValue == 5120,
                "\(broadcast.output)")
            // Broadcasts need the push type header: the linter says so.
            let bare = try await gateway.request(
                "POST", "/v1/lint", key: gateway.send, body: #"{"payload":\#(API.update),"destination":"broadcast"}"#,
                over: wire)
            #expect(
                bare.json?["valid"] == false
                    && bare.json?["findings"]?.arrayValue?.first?["path"]?.stringValue == "push-type")

            for (body, field) in [
                (#"{"push-type":"alert"}"#, "payload"), (#"{"payload":{},"prio":5}"#, "prio"),
                (#"{"payload":{},"priority":[10]}"#, "priority"),
                (#"{"payload":{},"destination":"moon"}"#, "destination"),
                ("", "body"),
            ] {
                let answer = try await gateway.request("POST", "/v1/lint", key: gateway.send, body: body, over: wire)
                #expect(answer.status == 400 && answer.errorField == field, "\(body): \(answer.output)")
            }
        }
    }
}
