import Foundation
import Testing

/// `herald gateway` sending through the real binaries: a device registered with curl, a notification
/// to its user, the emulator's log and the gateway's metrics.
@Suite(.timeLimit(.minutes(2)))
struct GatewayEndToEndTests {
    static let token = String(repeating: "c4", count: 32)

    @Test func aNotificationToAUserReachesTheEmulator() async throws {
        let scratch = try GatewayScratch()
        let emulator = try EmulatorProcess(scratch.appFlags, tlsIn: scratch.path)
        defer { _ = emulator.stop() }
        let ca = scratch.path + "/herald-data/ca.pem"
        let gateway = try GatewayProcess(
            ["--data-dir", scratch.dataDirectory, "--endpoint", emulator.tlsEndpoint, "--ca-file", ca]
                + scratch.appFlags)
        defer { _ = gateway.stop() }
        let api = try GatewayAPI(gateway: gateway, dataDirectory: scratch.dataDirectory)

        let put = try api.call(
            "PUT", "/v1/apps/com.example.app/devices/\(Self.token)", body: #"{"user":"ana","tags":["demo"]}"#)
        #expect(put.status == 200 && put.body.contains(#""status":"active""#), "\(put)")
        let id = try api.notify(#"{"to":{"users":["ana"]},"payload":{"aps":{"alert":"Your order shipped"}}}"#)

        let done = try await api.waitUntilDone(id, deadline: .seconds(60))
        let counts = try #require(done["counts"] as? [String: Any])
        #expect(counts["succeeded"] as? Int == 1 && counts["failed"] as? Int == 0, "\(done)")
        let deliveries = try api.deliveries(id)
        #expect(deliveries.count == 1 && deliveries.first?.token == Self.token, "\(deliveries)")
        let apnsID = try #require(deliveries.first?.apnsID)

        let logged = try Curl.run([
            "--cacert", ca, "--resolve", "localhost:\(emulator.port):127.0.0.1",
            emulator.tlsEndpoint + "/control/v1/deliveries?apns-id=\(apnsID)",
        ])
        let log = try #require(try JSONSerialization.jsonObject(with: Data(logged.body.utf8)) as? [String: Any])
        let entries = try #require(log["deliveries"] as? [[String: Any]], "\(logged)")
        #expect(entries.count == 1, "\(logged.body)")
        #expect(entries.first?["token"] as? String == Self.token && entries.first?["status"] as? Int == 200)
        #expect((entries.first?["apns-id"] as? String)?.lowercased() == apnsID.lowercased(), "\(logged.body)")
        let aps = (entries.first?["payload"] as? [String: Any])?["aps"] as? [String: Any]
        #expect(aps?["alert"] as? String == "Your order shipped", "\(logged.body)")

        let metrics = try api.call("GET", "/metrics")
        #expect(metrics.status == 200, "\(metrics)")
        let lines = metrics.body.split(separator: "\n")
        #expect(lines.contains(#"herald_gateway_sends_total{status="succeeded",reason=""} 1"#), "\(metrics.body)")
        #expect(!lines.contains { $0.hasPrefix(#"herald_gateway_sends_total{status="failed""#) }, "\(metrics.body)")
    }
}

/// The gateway's API with its admin key, through curl.
struct GatewayAPI {
    let url: String
    let adminKey: String

    init(gateway: GatewayProcess, dataDirectory: String) throws {
        url = gateway.url
        adminKey = try String(contentsOfFile: dataDirectory + "/admin-api-key", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func call(_ method: String, _ path: String, body: String? = nil) throws -> (status: Int, body: String) {
        var arguments = ["-X", method, "-H", "authorization: Bearer \(adminKey)"]
        if let body { arguments += ["-H", "content-type: application/json", "--data", body] }
        let run = try Curl.run(arguments + [url + path])
        return (run.status, run.body)
    }

    func json(_ method: String, _ path: String, body: String? = nil) throws -> [String: Any] {
        let answer = try call(method, path, body: body)
        return try #require(
            try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any], "\(answer)")
    }

    /// Posts a notification for com.example.app; expects 202 and returns its id.
    func notify(_ body: String) throws -> String {
        let answer = try call("POST", "/v1/apps/com.example.app/notifications", body: body)
        #expect(answer.status == 202, "\(answer)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
        return try #require(object["id"] as? String, "\(answer)")
    }

    /// Polls `GET /v1/notifications/{id}` until its state is done: the gateway is another process,
    /// with nothing to await but its answers.
    func waitUntilDone(_ id: String, deadline: Duration) async throws -> [String: Any] {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        while true {
            let notification = try json("GET", "/v1/notifications/\(id)")
            if notification["state"] as? String == "done" { return notification }
            try #require(clock.now < end, "not done in \(deadline): \(notification)")
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Every delivery row of the notification, in the order they were made.
    func deliveries(_ id: String) throws -> [(token: String, apnsID: String, status: String)] {
        var rows: [(token: String, apnsID: String, status: String)] = []
        var cursor: String?
        repeat {
            let page = try json(
                "GET", "/v1/notifications/\(id)/deliveries?limit=1000" + (cursor.map { "&cursor=\($0)" } ?? ""))
            for row in try #require(page["deliveries"] as? [[String: Any]], "\(page)") {
                rows.append(
                    (
                        try #require(row["token"] as? String), try #require(row["apns-id"] as? String),
                        try #require(row["status"] as? String)
                    ))
            }
            cursor = page["next-cursor"] as? String
        } while cursor != nil
        return rows
    }
}
