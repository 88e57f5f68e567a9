// Applying an injected fault to a provider request, on the connection's loop:
//
//   latency > 0  -> wait on the loop (a timer), then:
//   respond      -> the fault's status and {"reason"} (410 with a timestamp), logged as a fault
//   goaway       -> GOAWAY below this stream with {"reason"} as debug data: this request is left
//                   unprocessed (the client may resend it), the connection takes no new requests
//   reset        -> RST_STREAM with the fault's error code
//   disconnect   -> the connection is dropped
//   delay        -> the request is answered normally

import APNs
import HTTP2
import Synchronization

extension EmulatorHandler {
    func inject(_ fault: Fault, request: HTTP2Request, responder: HTTP2Responder) {
        guard fault.latencyMilliseconds > 0 else {
            apply(fault, request: request, responder: responder)
            return
        }
        let nanoseconds = UInt64(fault.latencyMilliseconds) * 1_000_000
        _ = responder.connection.loop.schedule(after: nanoseconds) { [self] in
            guard responder.connection.isOpen else { return }
            apply(fault, request: request, responder: responder)
        }
    }

    private func apply(_ fault: Fault, request: HTTP2Request, responder: HTTP2Responder) {
        let path = request.path ?? ""
        let token = Self.target(ofPath: path)
        let topic = request.headers.value(for: "apns-topic")
        let requestID = request.headers.value(for: "apns-id").flatMap { try? APNsID($0) }?.value
        switch fault.action {
        case .delay:
            answer(request, responder: responder)
        case .respond(let status, let reason):
            let id = requestID ?? APNsID.random().value
            var body = JSONObject([.init(key: "reason", value: .string(reason.rawValue))])
            if status == 410 { body["timestamp"] = .number(JSONNumber(milliseconds())) }
            _ = responder.respond(
                status: status, headers: [HTTP2Header("apns-id", id), HTTP2Header("content-type", "application/json")],
                body: JSONValue.object(body).encoded())
            record(
                token, topic, request.headers.value(for: "apns-push-type"), nil, id, nil, status, reason.rawValue,
                request.body, fault: "respond")
        case .goAway(let reason):
            _ = responder.connection.goAway(
                lastStreamID: max(0, request.streamID - 2), debugData: reason.goAwayDebugData)
            record(token, topic, nil, nil, requestID, nil, 0, reason.rawValue, request.body, fault: "goaway")
        case .reset(let code):
            _ = responder.reset(errorCode: code)
            record(token, topic, nil, nil, requestID, nil, 0, nil, request.body, fault: "reset")
        case .disconnect:
            responder.connection.close()
            record(token, topic, nil, nil, requestID, nil, 0, nil, request.body, fault: "disconnect")
        }
    }

    /// Paths of Apple's provider API (device pushes, broadcasts, channel management): faults apply to
    /// these, never to the control or device APIs.
    static func isProviderPath(_ path: String) -> Bool {
        path.hasPrefix("/3/device/") || path.hasPrefix("/4/broadcasts/") || path.hasPrefix("/1/apps/")
    }

    /// The device token of `/3/device/<token>`.
    static func target(ofPath path: String) -> String? {
        guard path.hasPrefix("/3/device/") else { return nil }
        return String(path.dropFirst("/3/device/".count)).lowercased()
    }

    /// The bundle id of `/4/broadcasts/apps/<bundle-id>` or `/1/apps/<bundle-id>/...`.
    static func bundleID(ofPath path: String) -> String? {
        for prefix in ["/4/broadcasts/apps/", "/1/apps/"] where path.hasPrefix(prefix) {
            return path.dropFirst(prefix.count).split(separator: "/").first.map(String.init)
        }
        return nil
    }
}

/// The server an emulator's handler runs in, known once it has started.
///
/// Weak: the server holds the handler, which holds this; a strong reference made a cycle that kept
/// every stopped emulator's server, handler and state (the delivery log, its writer thread and
/// store) alive until the process ended.
final class ServerReference: Sendable {
    private struct Held {
        weak var server: HTTP2Server?
    }

    private let held = Mutex(Held())

    func set(_ value: HTTP2Server) { held.withLock { $0.server = value } }
    var value: HTTP2Server? { held.withLock { $0.server } }
}
