import APNs
import HTTP2

/// `/control/v1/...`: what tests ask the emulator. GET `deliveries` (optional `?token=` and
/// `?apns-id=`, `?channel=`) lists the delivery log as JSON, oldest first; DELETE `deliveries` clears it;
/// POST `devices/<token>/unregister` makes pushes to that token answer 410 Unregistered from now on.
struct ControlAPI {
    let log: DeliveryLog
    let tokens: TokenRegistry
    let clock: @Sendable () -> Int

    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        let path = request.path ?? ""
        let (route, query) = Self.split(path)
        switch (request.method ?? "", route) {
        case ("GET", "/control/v1/deliveries"):
            let entries = log.entries(token: query["token"], apnsID: query["apns-id"], channel: query["channel"])
            let body = JSONValue.object(JSONObject([
                .init(key: "total", value: .number(JSONNumber(log.totalCount))),
                .init(key: "deliveries", value: .array(entries.map(Self.json))),
            ]))
            _ = responder.respond(status: 200, headers: [HTTP2Header("content-type", "application/json")], body: body.encoded())
        case ("DELETE", "/control/v1/deliveries"):
            log.removeAll()
            _ = responder.respond(status: 204)
        case ("POST", let route) where route.hasPrefix("/control/v1/devices/") && route.hasSuffix("/unregister"):
            let token = String(route.dropFirst("/control/v1/devices/".count).dropLast("/unregister".count))
            guard (try? DeviceToken(hex: token)) != nil else {
                let body = JSONValue.object(JSONObject([.init(key: "reason", value: .string("BadDeviceToken"))])).encoded()
                _ = responder.respond(status: 400, headers: [HTTP2Header("content-type", "application/json")], body: body)
                return
            }
            tokens.unregister(token, at: clock() * 1000)
            _ = responder.respond(status: 204)
        default:
            let body = JSONValue.object(JSONObject([.init(key: "reason", value: .string("BadPath"))])).encoded()
            _ = responder.respond(status: 404, headers: [HTTP2Header("content-type", "application/json")], body: body)
        }
    }

    static func json(_ delivery: Delivery) -> JSONValue {
        var object = JSONObject()
        object["receivedAt"] = .number(JSONNumber(delivery.receivedAt))
        object["token"] = delivery.token.map(JSONValue.string) ?? .null
        object["topic"] = delivery.topic.map(JSONValue.string) ?? .null
        object["pushType"] = delivery.pushType.map(JSONValue.string) ?? .null
        object["priority"] = delivery.priority.map { .number(JSONNumber($0)) } ?? .null
        object["apnsID"] = delivery.apnsID.map(JSONValue.string) ?? .null
        object["uniqueID"] = delivery.uniqueID.map(JSONValue.string) ?? .null
        object["status"] = .number(JSONNumber(delivery.status))
        object["reason"] = delivery.reason.map(JSONValue.string) ?? .null
        if let channel = delivery.channel { object["channel"] = .string(channel) }
        object["payload"] = (try? JSONValue(parsing: delivery.payload)) ?? .string(String(decoding: delivery.payload, as: UTF8.self))
        return .object(object)
    }

    /// `/path?a=b&c=d` -> ("/path", ["a": "b", "c": "d"]) (no percent-decoding: tokens and ids need none).
    static func split(_ path: String) -> (String, [String: String]) {
        guard let mark = path.firstIndex(of: "?") else { return (path, [:]) }
        var query: [String: String] = [:]
        for pair in path[path.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { query[String(parts[0])] = String(parts[1]) }
        }
        return (String(path[..<mark]), query)
    }
}
