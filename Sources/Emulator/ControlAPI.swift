import APNs
import HTTP2

/// `/control/v1/...`: what tests ask the emulator, as JSON on the same listener.
///
/// | route | what it does |
/// |---|---|
/// | `GET deliveries?token=&apns-id=&topic=&status=&reason=&since=&until=&limit=&cursor=` | the delivery log, oldest first, a page at a time |
/// | `DELETE deliveries` | clears the log |
/// | `POST devices/<token>/unregister` | later pushes to the token answer 410 Unregistered |
/// | `GET devices?topic=&limit=&cursor=` | the simulated devices by token, a page at a time |
/// | `GET faults`, `POST faults`, `DELETE faults`, `DELETE faults/<id>` | fault injection (see ``Fault``) |
/// | `GET stats` | answers by status and reason, faults, connections, log size, the store's writes |
///
/// Errors: 400 `{"reason":"BadRequest","field":...,"error":...}`, 404 BadPath, 405 MethodNotAllowed,
/// 401 Unauthorized with a control token (checked before, in EmulatorHandler: ControlAuthorization),
/// 409 TooManyFaults / TooManyUnregisteredTokens at the caps. Lists come a page at a time
/// (ControlAPI+Paging).
struct ControlAPI {
    let log: DeliveryLog
    let tokens: TokenRegistry
    let faults: FaultInjector
    let server: ServerReference
    /// Milliseconds since 1970 (the 410 timestamp of a token unregistered here).
    let milliseconds: @Sendable () -> Int
    var store: StoreStatus? = nil
    var devices: DeviceRegistry? = nil

    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        let (route, query) = Self.split(request.path ?? "")
        let method = request.method ?? ""
        let resource = String(route.dropFirst("/control/v1/".count))
        do throws(ControlRequestError) {
            switch resource {
            case "deliveries":
                switch method {
                case "GET": try listDeliveries(query, responder)
                case "DELETE":
                    log.removeAll()
                    _ = responder.respond(status: 204)
                default: Self.methodNotAllowed(responder)
                }
            case "faults":
                switch method {
                case "GET":
                    Self.json(
                        responder, 200,
                        .object(
                            JSONObject([
                                .init(
                                    key: "faults",
                                    value: .array(faults.list().map { $0.fault.json(id: $0.id, applied: $0.applied) }))
                            ])))
                case "POST": try addFault(request.body, responder)
                case "DELETE":
                    faults.removeAll()
                    _ = responder.respond(status: 204)
                default: Self.methodNotAllowed(responder)
                }
            case let faultRoute where faultRoute.hasPrefix("faults/"):
                guard method == "DELETE" else { return Self.methodNotAllowed(responder) }
                guard let id = Int(faultRoute.dropFirst("faults/".count)) else {
                    throw ControlRequestError(
                        field: "id", "must be a fault id (a whole number) from GET /control/v1/faults")
                }
                guard faults.remove(id: id) else { return Self.error(responder, 404, "FaultNotFound", nil) }
                _ = responder.respond(status: 204)
            case "devices":
                guard method == "GET" else { return Self.methodNotAllowed(responder) }
                try listDevices(query, responder)
            case "stats":
                guard method == "GET" else { return Self.methodNotAllowed(responder) }
                Self.json(responder, 200, stats())
            case let deviceRoute where deviceRoute.hasPrefix("devices/") && deviceRoute.hasSuffix("/unregister"):
                guard method == "POST" else { return Self.methodNotAllowed(responder) }
                let token = String(deviceRoute.dropFirst("devices/".count).dropLast("/unregister".count))
                guard let parsed = try? DeviceToken(hex: token) else {
                    return Self.error(
                        responder, 400, "BadDeviceToken", "'\(token)' is not a device token (hex, even length)")
                }
                // A simulated device goes the whole way (its stream ends, all its tokens answer 410);
                // any other token is simply marked.
                if let devices, devices.route(for: parsed.hex)?.kind == .device {
                    try? devices.unregister(parsed.hex)
                } else if !tokens.unregister(parsed.hex, at: milliseconds()) {
                    return Self.error(
                        responder, 409, "TooManyUnregisteredTokens",
                        "the emulator holds \(tokens.limit) unregistered tokens, its limit "
                            + "(EmulatorConfiguration.unregisteredTokenLimit, herald emulator --unregistered-limit)")
                }
                _ = responder.respond(status: 204)
            default:
                Self.error(responder, 404, "BadPath", "no control route \(route)")
            }
        } catch {
            Self.error(responder, 400, "BadRequest", error.message, field: error.field)
        }
    }

    private func addFault(_ body: [UInt8], _ responder: HTTP2Responder) throws(ControlRequestError) {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: body)
        } catch {
            throw ControlRequestError(field: "body", "must be a JSON object describing a fault: \(error)")
        }
        do {
            let fault = try Fault(json: json)
            guard let id = faults.add(fault) else {
                return Self.error(
                    responder, 409, "TooManyFaults",
                    "\(faults.limit) faults are declared, the limit (EmulatorConfiguration.faultLimit, herald emulator "
                        + "--fault-limit): remove some (DELETE /control/v1/faults/<id>) first")
            }
            Self.json(responder, 201, fault.json(id: id, applied: 0))
        } catch {
            throw ControlRequestError(field: error.field, error.message)
        }
    }

    private func stats() -> JSONValue {
        let counts = log.counts
        var byStatus = JSONObject()
        for (status, count) in counts.byStatus.sorted(by: { $0.key < $1.key }) {
            byStatus[String(status)] = .number(JSONNumber(count))
        }
        var byReason = JSONObject()
        for (reason, count) in counts.byReason.sorted(by: { $0.key < $1.key }) {
            byReason[reason] = .number(JSONNumber(count))
        }
        var object = JSONObject()
        object["requests"] = .number(JSONNumber(counts.total))
        object["by-status"] = .object(byStatus)
        object["by-reason"] = .object(byReason)
        object["faults"] = .object(
            JSONObject([
                .init(key: "active", value: .number(JSONNumber(faults.count))),
                .init(key: "limit", value: .number(JSONNumber(faults.limit))),
                .init(key: "injected", value: .number(JSONNumber(faults.injectedCount))),
            ]))
        if let server = server.value {
            object["connections"] = .object(
                JSONObject([
                    .init(key: "open", value: .number(JSONNumber(server.connectionCount))),
                    .init(key: "accepted", value: .number(JSONNumber(server.acceptedTotal))),
                    .init(key: "refused", value: .number(JSONNumber(server.refusedTotal))),
                ]))
        }
        if let devices { object["devices"] = .number(JSONNumber(devices.deviceCount)) }
        object["delivery-log"] = .object(
            JSONObject([
                .init(key: "kept", value: .number(JSONNumber(log.keptCount))),
                .init(key: "capacity", value: .number(JSONNumber(log.capacity))),
            ]))
        if let store { object["storage"] = storageStats(store) }
        return .object(object)
    }

    static func json(_ delivery: Delivery) -> JSONValue {
        var object = JSONObject()
        object["received-at"] = .number(JSONNumber(delivery.receivedAt))
        object["token"] = delivery.token.map(JSONValue.string) ?? .null
        object["topic"] = delivery.topic.map(JSONValue.string) ?? .null
        object["push-type"] = delivery.pushType.map(JSONValue.string) ?? .null
        object["priority"] = delivery.priority.map { .number(JSONNumber($0)) } ?? .null
        object["collapse-id"] = delivery.collapseID.map(JSONValue.string) ?? .null
        object["expiration"] = delivery.expiration.map { .number(JSONNumber($0)) } ?? .null
        object["apns-id"] = delivery.apnsID.map(JSONValue.string) ?? .null
        object["apns-unique-id"] = delivery.uniqueID.map(JSONValue.string) ?? .null
        object["status"] = .number(JSONNumber(delivery.status))
        object["reason"] = delivery.reason.map(JSONValue.string) ?? .null
        if let fault = delivery.fault { object["fault"] = .string(fault) }
        if let channel = delivery.channel { object["channel"] = .string(channel) }
        object["payload"] =
            (try? JSONValue(parsing: delivery.payload)) ?? .string(String(decoding: delivery.payload, as: UTF8.self))
        return .object(object)
    }

    static func json(_ responder: HTTP2Responder, _ status: Int, _ body: JSONValue) {
        _ = responder.respond(
            status: status, headers: [HTTP2Header("content-type", "application/json")], body: body.encoded())
    }

    static func error(
        _ responder: HTTP2Responder, _ status: Int, _ reason: String, _ message: String?, field: String? = nil
    ) {
        var body = JSONObject([.init(key: "reason", value: .string(reason))])
        if let field { body["field"] = .string(field) }
        if let message { body["error"] = .string(message) }
        json(responder, status, .object(body))
    }

    private static func methodNotAllowed(_ responder: HTTP2Responder) {
        error(responder, 405, "MethodNotAllowed", nil)
    }

    /// `/path?a=b&c=d` -> ("/path", ["a": "b", "c": "d"]), values percent-decoded.
    static func split(_ path: String) -> (String, [String: String]) {
        guard let mark = path.firstIndex(of: "?") else { return (path, [:]) }
        var query: [String: String] = [:]
        for pair in path[path.index(after: mark)...].split(separator: "&") {
            // `name=` and a bare `name` keep an empty value, for the filters to refuse by name.
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            query[String(parts[0])] = parts.count == 2 ? percentDecoded(parts[1]) : ""
        }
        return (String(path[..<mark]), query)
    }

    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                continue
            }
            guard let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            else { return String(text) }
            bytes.append(value)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
