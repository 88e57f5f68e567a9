// Broadcast channels on the emulator's listener (APNS-REFERENCE.md, "Broadcast push (iOS 18)"):
//
//   POST/GET/DELETE /1/apps/<bundle-id>/channels, GET /1/apps/<bundle-id>/all-channels
//       -> header checks (ChannelRequestValidator) -> provider token (or client certificate)
//       -> create body -> the ChannelStore -> 201 / 200 / 204 with apns-request-id
//   POST /4/broadcasts/apps/<bundle-id>
//       -> header checks (BroadcastValidator) -> provider token (or client certificate)
//       -> channel and payload checks -> 200 with apns-request-id, the delivery log, the hook
//
// Authentication is the device pushes' own per-connection check (`authenticate`). Every answer
// carries `apns-request-id`: the request's, or a generated one.

import APNs
import HTTP2
import Synchronization

extension EmulatorHandler {
    static func isBroadcastPath(_ path: String) -> Bool {
        path.hasPrefix(BroadcastPaths.managementPrefix) || path.hasPrefix(BroadcastPaths.broadcastPrefix)
    }

    func handleBroadcast(_ request: HTTP2Request, path: String, responder: HTTP2Responder) {
        var headers: [(name: String, value: String)] = []
        for header in request.headers where !header.name.starts(with: [UInt8(ascii: ":")]) {
            headers.append((header.nameString, header.valueString))
        }
        let incoming = IncomingPushRequest(
            method: request.method ?? "", path: path, headers: headers, body: request.body)
        let state = responder.connection.userData as? ConnectionState ?? ConnectionState()
        let certificateBundleIDs = responder.connection.peerCertificate.map {
            Set($0.apnsTopics.map { Topic.bareBundleID($0) })
        }
        var policy = configuration.broadcastPolicy
        if !configuration.bundleIDs.isEmpty { policy.allowedBundleIDs = configuration.bundleIDs }
        if let certificateBundleIDs, !certificateBundleIDs.isEmpty { policy.allowedBundleIDs = certificateBundleIDs }
        let authenticate = { (authorization: String?, requestID: String) -> Result<Void, PushRejection> in
            if certificateBundleIDs != nil { return .success(()) }
            return self.authenticate(
                authorization: authorization, apnsID: requestID, state: state, connection: responder.connection)
        }
        if path.hasPrefix(BroadcastPaths.broadcastPrefix) {
            broadcast(
                incoming, exceededBodyLimit: request.exceededBodyLimit, policy: policy, authenticate: authenticate,
                responder: responder)
        } else {
            manageChannels(incoming, policy: policy, authenticate: authenticate, responder: responder)
        }
    }

    // MARK: - Channel management

    private func manageChannels(
        _ incoming: IncomingPushRequest, policy: BroadcastPolicy,
        authenticate: (String?, String) -> Result<Void, PushRejection>, responder: HTTP2Responder
    ) {
        let outcome = ChannelRequestValidator.validateHeaders(incoming, policy: policy)
            .flatMap { request in authenticate(request.authorization, request.requestID).map { request } }
        let request: ChannelRequest
        switch outcome {
        case .success(let valid): request = valid
        case .failure(let rejection):
            reject(rejection, responder: responder)
            return
        }
        let id = HTTP2Header("apns-request-id", request.requestID)
        let json = HTTP2Header("content-type", "application/json")
        func refuse(_ reason: Reason) {
            reject(PushRejection(reason, id: request.requestID), responder: responder)
        }
        switch request.operation {
        case .create:
            switch ChannelRequestValidator.validateCreateBody(incoming.body, requestID: request.requestID) {
            case .failure(let rejection):
                reject(rejection, responder: responder)
            case .success(let configuration):
                guard let channel = channels.create(bundleID: request.bundleID, policy: configuration.storagePolicy)
                else {
                    return refuse(.cannotCreateChannelConfig)
                }
                _ = responder.respond(status: 201, headers: [id, HTTP2Header("apns-channel-id", channel.value)])
            }
        case .read(let channel):
            guard let storagePolicy = channels.policy(bundleID: request.bundleID, channel: channel) else {
                return refuse(.channelNotRegistered)
            }
            let body = ChannelConfiguration(storagePolicy: storagePolicy).json.encoded()
            _ = responder.respond(status: 200, headers: [id, json], body: body)
        case .delete(let channel):
            guard channels.delete(bundleID: request.bundleID, channel: channel) else {
                return refuse(.channelNotRegistered)
            }
            _ = responder.respond(status: 204, headers: [id])
        case .list:
            let ids = channels.channels(bundleID: request.bundleID).map { JSONValue.string($0.value) }
            let body = JSONValue.object(JSONObject([.init(key: "channels", value: .array(ids))])).encoded()
            _ = responder.respond(status: 200, headers: [id, json], body: body)
        }
    }

    // MARK: - Broadcasts

    /// Stands for a body the session stopped keeping (over `PayloadLimits.voip` + 1 bytes): the
    /// validator then answers PayloadTooLarge at the point in its order where it checks the size.
    static let oversizedBody = [UInt8](repeating: UInt8(ascii: " "), count: PayloadLimits.broadcast + 1)

    private func broadcast(
        _ incoming: IncomingPushRequest, exceededBodyLimit: Bool, policy: BroadcastPolicy,
        authenticate: (String?, String) -> Result<Void, PushRejection>, responder: HTTP2Responder
    ) {
        let outcome = BroadcastValidator.validateHeaders(incoming, policy: policy)
            .flatMap { headers in authenticate(headers.authorization, headers.requestID).map { headers } }
            .flatMap { headers in
                BroadcastValidator.validate(
                    headers, storagePolicy: channels.policy(bundleID: headers.bundleID, channel: headers.channelID),
                    body: exceededBodyLimit ? Self.oversizedBody : incoming.body, policy: policy)
            }
        let field = { (name: String) in incoming.headers.first { $0.name == name }?.value }
        switch outcome {
        case .success(let accepted):
            _ = responder.respond(status: 200, headers: [HTTP2Header("apns-request-id", accepted.requestID)])
            log.append(
                Delivery(
                    receivedAt: milliseconds(), token: nil, topic: accepted.bundleID,
                    pushType: PushType.liveactivity.rawValue,
                    priority: accepted.priority.rawValue, apnsID: accepted.requestID, uniqueID: nil, status: 200,
                    reason: nil,
                    payload: accepted.payload, channel: accepted.channelID.value))
            // Subscribed simulated devices get it now, or (policy 1) when they return.
            devices.deliverBroadcast(
                bundleID: accepted.bundleID, channelID: accepted.channelID.value, payload: accepted.payload,
                expiration: accepted.expiration?.unixSeconds,
                storesLatest: accepted.storagePolicy == .mostRecentMessage,
                requestID: accepted.requestID, priority: accepted.priority.rawValue)
            broadcastHook.deliver(accepted)
        case .failure(let rejection):
            let requestID = reject(rejection, responder: responder)
            let bundleID =
                incoming.path.hasPrefix(BroadcastPaths.broadcastPrefix)
                ? String(incoming.path.dropFirst(BroadcastPaths.broadcastPrefix.count)) : nil
            log.append(
                Delivery(
                    receivedAt: milliseconds(), token: nil, topic: bundleID, pushType: field("apns-push-type"),
                    priority: field("apns-priority").flatMap { Int($0) }, apnsID: requestID, uniqueID: nil,
                    status: rejection.status, reason: rejection.reason.rawValue, payload: incoming.body,
                    channel: field("apns-channel-id")))
        }
    }

    /// Answers `rejection` with its status, `apns-request-id` and `{"reason": ...}`; returns the id.
    @discardableResult
    private func reject(_ rejection: PushRejection, responder: HTTP2Responder) -> String {
        let id = rejection.apnsID ?? APNsID.random().value
        let body = JSONValue.object(JSONObject([.init(key: "reason", value: .string(rejection.reason.rawValue))]))
        _ = responder.respond(
            status: rejection.status,
            headers: [HTTP2Header("apns-request-id", id), HTTP2Header("content-type", "application/json")],
            body: body.encoded())
        return id
    }
}

/// Where the emulator hands accepted broadcasts (to simulated devices, in the end). Set with
/// `Emulator.onBroadcast(_:)`; called on the connection's event loop, so it must return quickly.
/// Thread-safety: `Sendable`; the closure may be replaced while the emulator serves.
final class BroadcastHook: Sendable {
    private let hook = Mutex<(@Sendable (AcceptedBroadcast) -> Void)?>(nil)

    init() {}

    func set(_ handler: (@Sendable (AcceptedBroadcast) -> Void)?) {
        hook.withLock { $0 = handler }
    }

    func deliver(_ broadcast: AcceptedBroadcast) {
        hook.withLock { $0 }?(broadcast)
    }
}
