import APNs
import Gateway
import Testing

/// The web console's routes on the gateway: its files without a key (types, etag, 304, no-cache, the
/// security policy, the reason table), `GET /v1/apps` and `GET /v1/apps/{bundle-id}/notifications`
/// (newest first, page by page, one app's only), over HTTP/1.1 and HTTP/2.
@Suite(.timeLimit(.minutes(3)))
struct GatewayConsoleRoutesTests {
    typealias API = NotificationAPI

    @Test(arguments: WireProtocol.allCases)
    func theConsoleIsServedWithoutAKey(_ wire: WireProtocol) async throws {
        try await GatewayAPIFixture.with(.memory) { gateway in
            let files = [
                ("/", "text/html; charset=utf-8"), ("/assets/gateway.js", "text/javascript; charset=utf-8"),
                ("/assets/common.js", "text/javascript; charset=utf-8"),
                ("/assets/console.css", "text/css; charset=utf-8"),
                ("/favicon.ico", "image/svg+xml"), ("/assets/reasons.json", "application/json"),
            ]
            for (path, type) in files {
                let answer = try await gateway.request("GET", path, key: nil, over: wire)
                #expect(answer.status == 200 && answer.bodySize > 0, "\(path): \(answer.output)")
                #expect(answer.headers["content-type"] == type, "\(path)")
                #expect(answer.headers["cache-control"] == "no-cache", "\(path)")
                #expect(answer.headers["content-security-policy"]?.contains("script-src 'self'") == true, "\(path)")
                let etag = try #require(answer.headers["etag"], "\(path)")
                let again = try await gateway.request(
                    "GET", path, key: nil, headers: ["if-none-match: \(etag)"], over: wire)
                #expect(again.status == 304 && again.bodySize == 0, "\(path): \(again.output)")
            }
            let reasons = try await gateway.request("GET", "/assets/reasons.json", key: nil, over: wire)
            let unregistered = reasons.json?["reasons"]?["Unregistered"]
            #expect(unregistered?["status"]?.intValue == 410)
            #expect(unregistered?["summary"]?.stringValue == Reason.unregistered.info?.summary)
            #expect(unregistered?["fix"]?.stringValue?.contains("unregistered") == true)
            #expect(reasons.json?["reasons"]?["TokenNotActive"]?["summary"]?.stringValue != nil)

            let missing = try await gateway.request("GET", "/assets/missing.js", key: nil, over: wire)
            #expect(missing.status == 404 && missing.errorCode == "unknown-asset", "\(missing.output)")
            // A page has one address: the gateway's page is `/`, not an asset.
            let page = try await gateway.request("GET", "/assets/gateway.html", key: nil, over: wire)
            #expect(page.status == 404 && page.errorCode == "unknown-asset")
        }
    }

    @Test(arguments: WireProtocol.allCases)
    func appsAreListedForTheKey(_ wire: WireProtocol) async throws {
        try await GatewayAPIFixture.with(.memory) { gateway in
            let all = try await gateway.request("GET", "/v1/apps", key: gateway.send, over: wire)
            #expect(all.status == 200, "\(all.output)")
            #expect(
                all.json
                    == [
                        "apps": [
                            ["bundle-id": .string(GatewayAPIFixture.app), "environments": ["production", "sandbox"]],
                            ["bundle-id": .string(GatewayAPIFixture.sandboxApp), "environments": ["sandbox"]],
                        ]
                    ])
            let one = try await gateway.request("GET", "/v1/apps", key: gateway.otherAppSend, over: wire)
            #expect(
                one.json?["apps"]?.arrayValue?.map { $0["bundle-id"]?.stringValue } == [GatewayAPIFixture.sandboxApp])
            GatewayJSONFieldsTests.check(
                "gateway-apps", [all.json, one.json].compactMap { $0 }, against: try GatewayJSONFieldsTests.documented()
            )
            let register = try await gateway.request("GET", "/v1/apps", key: gateway.register, over: wire)
            #expect(register.status == 403 && register.errorCode == "forbidden")
            let none = try await gateway.request("GET", "/v1/apps", key: nil, over: wire)
            #expect(none.status == 401 && none.errorCode == "unauthorized")
        }
    }

    @Test(arguments: StoreKind.allCases, WireProtocol.allCases)
    func notificationsAreListedNewestFirstPageByPage(_ kind: StoreKind, _ wire: WireProtocol) async throws {
        try await GatewayAPIFixture.with(kind) { gateway in
            var created: [String] = []
            for index in 1...5 {
                let answer = try await gateway.request(
                    "POST", API.path, key: gateway.send,
                    body: API.body(to: #"{"tokens":["\#(try token(index).hex)"]}"#), over: wire)
                created.append(try #require(answer.json?["id"]?.stringValue, "\(answer.output)"))
                // The other app's notifications are interleaved and never listed for this one.
                let other = try await gateway.request(
                    "POST", "/v1/apps/\(GatewayAPIFixture.sandboxApp)/notifications", key: gateway.otherAppSend,
                    body: API.body(to: #"{"tokens":["\#(try token(10 + index).hex)"]}"#), over: wire)
                #expect(other.status == 202, "\(other.output)")
            }
            var seen: [JSONValue] = []
            var pageAnswers: [JSONValue] = []
            var cursor: String?
            var pages = 0
            repeat {
                let query = "?limit=2" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await gateway.request("GET", API.path + query, key: gateway.send, over: wire)
                #expect(page.status == 200, "\(page.output)")
                let notifications = page.json?["notifications"]?.arrayValue ?? []
                #expect(notifications.count == (pages < 2 ? 2 : 1))
                seen += notifications
                if let json = page.json { pageAnswers.append(json) }
                cursor = page.json?["next-cursor"]?.stringValue
                pages += 1
            } while cursor != nil && pages < 10
            #expect(pages == 3)
            GatewayJSONFieldsTests.check(
                "gateway-notifications", pageAnswers, against: try GatewayJSONFieldsTests.documented())
            #expect(seen.map { $0["id"]?.stringValue ?? "" } == created.reversed())
            #expect(
                seen.allSatisfy { Set($0.objectValue?.keys ?? []) == GatewayNotificationReadTests.notificationFields })
            #expect(
                seen.allSatisfy { $0["state"]?.stringValue == "sending" && $0["counts"]?["pending"]?.intValue == 0 })

            let otherKey = try await gateway.request("GET", API.path, key: gateway.otherAppSend, over: wire)
            #expect(otherKey.status == 403 && otherKey.errorCode == "forbidden")
            let badLimit = try await gateway.request("GET", API.path + "?limit=0", key: gateway.send, over: wire)
            #expect(badLimit.status == 400 && badLimit.errorField == "limit")
            let unknown = try await gateway.request("GET", API.path + "?before=1", key: gateway.send, over: wire)
            #expect(unknown.status == 400 && unknown.errorField == "before")
        }
    }

    @Test(arguments: WireProtocol.allCases)
    func aPreviewIsWhatTheDeviceModelRenders(_ wire: WireProtocol) async throws {
        try await GatewayAPIFixture.with(.memory) { gateway in
            let title = String(repeating: "Long title ", count: 6)
            let body = #"{"payload":{"aps":{"alert":{"title":"\#(title)","body":"Short body"},"thread-id":"orders"}}}"#
            let answer = try await gateway.request("POST", "/v1/preview", key: gateway.send, body: body, over: wire)
            #expect(answer.status == 200, "\(answer.output)")
            let shown = try #require(answer.json?["title"]?.stringValue)
            #expect(shown.count == 40 && shown.hasSuffix("…") && title.hasPrefix(String(shown.dropLast())))
            #expect(answer.json?["body"]?.stringValue == "Short body" && answer.json?["subtitle"]?.stringValue == "")
            #expect(answer.json?["truncated"]?.boolValue == true && answer.json?["thread-id"]?.stringValue == "orders")

            let plain = try await gateway.request(
                "POST", "/v1/preview", key: gateway.send, body: #"{"payload":{"aps":{"alert":"Hello"}}}"#, over: wire)
            #expect(plain.json?["body"]?.stringValue == "Hello" && plain.json?["thread-id"]?.isNull == true)

            // The device would drop these: nothing shown, and why.
            for (dropped, field) in [
                (#"{"payload":{"aps":{"badge":"3"}}}"#, "payload.aps.badge"), (#"{"payload":{"x":1}}"#, "payload.aps"),
                (#"{"payload":[1]}"#, "payload"),
            ] {
                let answer = try await gateway.request(
                    "POST", "/v1/preview", key: gateway.send, body: dropped, over: wire)
                #expect(
                    answer.status == 200 && answer.json?["title"]?.stringValue == "", "\(dropped): \(answer.output)")
                #expect(answer.json?["dropped"]?["field"]?.stringValue == field, "\(dropped): \(answer.output)")
            }
            #expect(plain.json?["dropped"]?.isNull == true)
            let dropped = try await gateway.request(
                "POST", "/v1/preview", key: gateway.send, body: #"{"payload":{"aps":{"badge":"3"}}}"#, over: wire)
            GatewayJSONFieldsTests.check(
                "gateway-preview", [answer.json, plain.json, dropped.json].compactMap { $0 },
                against: try GatewayJSONFieldsTests.documented())
            for (bad, field) in [("{}", "payload"), (#"{"payload":{},"extra":1}"#, "extra"), ("[]", "body")] {
                let refused = try await gateway.request("POST", "/v1/preview", key: gateway.send, body: bad, over: wire)
                #expect(refused.status == 400 && refused.errorField == field, "\(bad): \(refused.output)")
            }
            let register = try await gateway.request(
                "POST", "/v1/preview", key: gateway.register, body: "{}", over: wire)
            #expect(register.status == 403)
        }
    }
}
