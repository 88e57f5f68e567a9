// The simulated devices' HTTP/2 API on the emulator's listener (docs/EMULATOR.md, "Devices"):
//
//   POST   /device/v1/devices                        {"topic","environment"?} -> 201 {"token"}
//   GET    /device/v1/devices/<token>/notifications  -> 200, one JSON line per notification, open
//   DELETE /device/v1/devices/<token>                -> 204; pushes to its tokens answer 410
//   POST   /device/v1/devices/<token>/channels       {"channel-id","bundle-id"?} -> 204
//   POST   /device/v1/devices/<token>/tokens         {"kind":"live-activity"|"push-to-start"} -> 201 {"token","kind"}
//
// Errors are JSON {"reason": "..."} naming the field or token: 400 bad input, 404 unknown device
// or path, 405 wrong method.

import APNs
import HTTP2

struct DeviceAPI {
    static let prefix = "/device/v1/"
    static let devicesPath = "/device/v1/devices"

    let devices: DeviceRegistry
    /// For registrations that name no environment: the emulator's own.
    let defaultEnvironment: DeviceEnvironment

    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        let method = request.method ?? ""
        let path = request.path ?? ""
        let rest = path.hasPrefix(Self.devicesPath + "/") ? path.dropFirst(Self.devicesPath.count + 1) : nil
        let parts = rest.map { $0.split(separator: "/", omittingEmptySubsequences: false).map(String.init) } ?? []
        do throws(DeviceError) {
            switch (method, path == Self.devicesPath, parts.count, parts.last) {
            case ("POST", true, _, _):
                try register(request, responder)
            case ("DELETE", false, 1, _):
                try devices.unregister(try token(parts[0]))
                responder.respond(status: 204)
            case ("GET", false, 2, "notifications"):
                try listen(try token(parts[0]), responder)
            case ("POST", false, 2, "channels"):
                let body = try object(request)
                try devices.subscribe(
                    try token(parts[0]), bundleID: try optionalString(body, "bundle-id"),
                    channelID: try string(body, "channel-id"))
                responder.respond(status: 204)
            case ("POST", false, 2, "tokens"):
                let body = try object(request)
                let kindText = try string(body, "kind")
                guard let kind = DeviceTokenKind(rawValue: kindText), kind != .device else {
                    throw .invalid(
                        field: "kind", rule: "is \"\(kindText)\"; use \"live-activity\" or \"push-to-start\"")
                }
                let token = try devices.registerToken(kind, for: try token(parts[0]))
                answer(responder, 201, ["token": .string(token), "kind": .string(kind.rawValue)])
            case (_, true, _, _), (_, false, 1, _), (_, false, 2, "notifications"), (_, false, 2, "channels"),
                (_, false, 2, "tokens"):
                throw DeviceError(status: 405, reason: "method: \(method) is not allowed on \(path)")
            default:
                throw DeviceError(status: 404, reason: "path: \(path) is not a device API path (see docs/EMULATOR.md)")
            }
        } catch {
            answer(responder, error.status, ["reason": .string(error.reason)])
        }
    }

    private func register(_ request: HTTP2Request, _ responder: HTTP2Responder) throws(DeviceError) {
        let body = try object(request)
        let topic = try string(body, "topic")
        let environment = try optionalString(body, "environment").map { text throws(DeviceError) in
            try DeviceEnvironment(parsing: text)
        }
        let token = try devices.register(bundleID: topic, environment: environment ?? defaultEnvironment)
        answer(
            responder, 201,
            [
                "token": .string(token), "topic": .string(topic),
                "environment": .string((environment ?? defaultEnvironment).rawValue),
            ])
    }

    /// Opens the device's stream: stored notifications first, then each push as it is accepted.
    /// The device is offline again once the stream ends, however it ends.
    private func listen(_ token: String, _ responder: HTTP2Responder) throws(DeviceError) {
        guard devices.route(for: token)?.kind == .device else { throw .unknownDevice(token) }
        let connection = ConnectionID()
        let devices = self.devices
        let started = responder.startStreaming(
            status: 200, headers: [HTTP2Header("content-type", "application/x-ndjson")]
        ) { _ in
            if let id = connection.value { devices.disconnect(token, connection: id) }
        }
        guard started else { return }
        do {
            connection.value = try devices.connect(token, sink: StreamDeviceSink(responder: responder.sendable))
        } catch {
            responder.finish()  // unregistered in between
        }
    }

    // MARK: Input

    private func token(_ text: String) throws(DeviceError) -> String {
        do {
            return try DeviceToken(hex: text).hex
        } catch {
            throw .invalid(field: "token", rule: error.message)
        }
    }

    private func object(_ request: HTTP2Request) throws(DeviceError) -> JSONObject {
        guard !request.body.isEmpty else { throw .invalid(field: "body", rule: "is empty; send a JSON object") }
        guard let value = try? JSONValue(parsing: request.body), let object = value.objectValue else {
            throw .invalid(field: "body", rule: "is not a JSON object")
        }
        return object
    }

    private func string(_ object: JSONObject, _ key: String) throws(DeviceError) -> String {
        guard let value = try optionalString(object, key) else { throw .invalid(field: key, rule: "is missing") }
        return value
    }

    private func optionalString(_ object: JSONObject, _ key: String) throws(DeviceError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let text = value.stringValue else {
            throw .invalid(field: key, rule: "is \(value.kindDescription); use a string")
        }
        return text
    }

    private func answer(_ responder: HTTP2Responder, _ status: Int, _ members: KeyValuePairs<String, JSONValue>) {
        let body = JSONValue.object(JSONObject(members.map { JSONObject.Member(key: $0.key, value: $0.value) }))
        responder.respond(
            status: status, headers: [HTTP2Header("content-type", "application/json")], body: body.encoded())
    }
}

/// The registry's id for a stream's connection, set once the device is connected. Loop-confined:
/// written and read on the stream's loop only.
private final class ConnectionID {
    var value: UInt64?
}
