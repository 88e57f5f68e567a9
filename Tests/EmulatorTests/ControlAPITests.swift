import APNs
import APNsClient
import Emulator
import HTTP2
import Keys
import Testing

/// The control API's routes, filters, stats and its answers to malformed requests.
@Suite(.timeLimit(.minutes(1)))
struct ControlAPITests {
    func withEmulator(_ body: (Emulator, APNsClient) async throws -> Void) async throws {
        try await withDeviceEmulator(retryPolicy: .none) { harness in try await body(harness.emulator, harness.client) }
    }

    func call(_ emulator: Emulator, _ method: String, _ path: String, _ body: String = "") async throws -> (Int, JSONValue?) {
        let response = try await ControlClient.request(method: method, port: emulator.port, path: path, body: Array(body.utf8))
        return (response.status, response.body.isEmpty ? nil : try JSONValue(parsing: response.body))
    }

    func note(_ token: String, topic: String = "com.example.app") throws -> APNs.Notification {
        APNs.Notification(token: try DeviceToken(hex: token), topic: try Topic(topic), payload: Payload.alert(body: "x"))
    }

    @Test func deliveriesFilterByTopicStatusReasonTimeAndLimit() async throws {
        try await withEmulator { emulator, client in
            let a = String(repeating: "aa", count: 32)
            let b = String(repeating: "bb", count: 32)
            _ = await client.result(for: try note(a))
            _ = await client.result(for: try note(b, topic: "com.example.other"))
            _ = await client.result(for: try note(a))
            emulator.tokens.unregister(b, at: 0)
            _ = await client.result(for: try note(b, topic: "com.example.other"))

            func count(_ query: String) async throws -> Int {
                let (status, body) = try await call(emulator, "GET", "/control/v1/deliveries?" + query)
                #expect(status == 200, "\(query)")
                return body?["deliveries"]?.arrayValue?.count ?? -1
            }
            #expect(try await count("token=\(a.uppercased())") == 2)
            #expect(try await count("topic=com.example.other") == 2)
            #expect(try await count("status=410") == 1)
            #expect(try await count("reason=Unregistered") == 1)
            #expect(try await count("status=200&topic=com.example.app") == 2)
            #expect(try await count("limit=3") == 3)
            #expect(try await count("since=0") == 4)
            #expect(try await count("until=0") == 0)
            let first = try await call(emulator, "GET", "/control/v1/deliveries?limit=1").1
            #expect(first?["deliveries"]?.arrayValue?.first?["status"] == 200, "a page starts at the oldest")
            #expect(first?["next-cursor"]?.stringValue != nil, "more follow")
        }
    }

    @Test func statsCountAnswersByStatusAndReason() async throws {
        try await withEmulator { emulator, client in
            let token = String(repeating: "aa", count: 32)
            _ = await client.result(for: try note(token))
            _ = await client.result(for: try note(token))
            emulator.tokens.unregister(token, at: 0)
            _ = await client.result(for: try note(token))
            let (status, stats) = try await call(emulator, "GET", "/control/v1/stats")
            #expect(status == 200)
            #expect(stats?["requests"] == 3)
            #expect(stats?["by-status"]?["200"] == 2)
            #expect(stats?["by-status"]?["410"] == 1)
            #expect(stats?["by-reason"]?["Unregistered"] == 1)
            #expect((stats?["connections"]?["open"]?.intValue ?? 0) >= 1)
            #expect(stats?["delivery-log"]?["kept"] == 3)
            // Clearing the log keeps the totals.
            #expect(try await call(emulator, "DELETE", "/control/v1/deliveries").0 == 204)
            let after = try await call(emulator, "GET", "/control/v1/stats").1
            #expect(after?["requests"] == 3 && after?["delivery-log"]?["kept"] == 0)
        }
    }

    @Test func faultsAreListedAndRemovedById() async throws {
        try await withEmulator { emulator, _ in
            let (created, fault) = try await call(emulator, "POST", "/control/v1/faults", #"{"status":503,"count":5}"#)
            #expect(created == 201)
            let id = try #require(fault?["id"]?.intValue)
            #expect(fault?["reason"] == "ServiceUnavailable" && fault?["remaining"] == 5)
            let listed = try await call(emulator, "GET", "/control/v1/faults").1
            #expect(listed?["faults"]?.arrayValue?.count == 1)
            #expect(try await call(emulator, "DELETE", "/control/v1/faults/\(id)").0 == 204)
            #expect(try await call(emulator, "DELETE", "/control/v1/faults/\(id)").0 == 404)
            #expect(emulator.faults.list().isEmpty)
        }
    }

    @Test(arguments: [
        ("POST", "/control/v1/faults", "not json", 400, "body"),
        ("POST", "/control/v1/faults", "[1]", 400, "fault"),
        ("POST", "/control/v1/faults", #"{"action":"explode"}"#, 400, "action"),
        ("POST", "/control/v1/faults", #"{"status":200}"#, 400, "status"),
        ("POST", "/control/v1/faults", #"{"reason":"NoSuchReason"}"#, 400, "status"),
        ("POST", "/control/v1/faults", #"{"status":500,"count":0}"#, 400, "count"),
        ("POST", "/control/v1/faults", #"{"status":500,"fraction":1.5}"#, 400, "fraction"),
        ("POST", "/control/v1/faults", #"{"status":500,"count":2,"fraction":0.5}"#, 400, "fraction"),
        ("POST", "/control/v1/faults", #"{"action":"delay"}"#, 400, "latency-ms"),
        ("POST", "/control/v1/faults", #"{"status":500,"colour":"red"}"#, 400, "colour"),
        ("GET", "/control/v1/deliveries?limit=0", "", 400, "limit"),
        ("GET", "/control/v1/deliveries?limit=1001", "", 400, "limit"),
        ("GET", "/control/v1/deliveries?cursor=x", "", 400, "cursor"),
        ("GET", "/control/v1/devices?limit=5000", "", 400, "limit"),
        ("GET", "/control/v1/devices?cursor=zz", "", 400, "cursor"),
        ("GET", "/control/v1/deliveries?status=abc", "", 400, "status"),
        ("GET", "/control/v1/deliveries?tokne=ab", "", 400, "tokne"),
        ("GET", "/control/v1/deliveries?token=", "", 400, "token"),
        ("GET", "/control/v1/deliveries?limit", "", 400, "limit"),
        ("DELETE", "/control/v1/faults/x", "", 400, "id"),
    ])
    func malformedRequestsNameTheField(method: String, path: String, body: String, status: Int, field: String) async throws {
        try await withEmulator { emulator, _ in
            let (answer, json) = try await call(emulator, method, path, body)
            #expect(answer == status)
            #expect(json?["reason"] == "BadRequest")
            #expect(json?["field"]?.stringValue == field, "\(json?["error"]?.stringValue ?? "no error text")")
        }
    }

    @Test(arguments: [
        ("PUT", "/control/v1/deliveries", 405, "MethodNotAllowed"),
        ("POST", "/control/v1/stats", 405, "MethodNotAllowed"),
        ("GET", "/control/v1/devices/abcd/unregister", 405, "MethodNotAllowed"),
        ("POST", "/control/v1/devices/xyz/unregister", 400, "BadDeviceToken"),
        ("GET", "/control/v1/nothing", 404, "BadPath"),
    ])
    func wrongRoutesAndMethods(method: String, path: String, status: Int, reason: String) async throws {
        try await withEmulator { emulator, _ in
            let (answer, json) = try await call(emulator, method, path)
            #expect(answer == status)
            #expect(json?["reason"]?.stringValue == reason)
        }
    }
}
