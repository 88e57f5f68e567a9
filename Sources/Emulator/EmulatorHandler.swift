// The APNs emulator's request handling, on the connection's event loop:
//
//   /3/device/<token>  -> header checks (DevicePushValidator) -> provider token (or client
//                         certificate) -> payload checks -> 200 with apns-id (+ apns-unique-id)
//   /control/v1/...    -> the delivery log, for tests
//   /1/apps/..., /4/broadcasts/apps/... -> channel management and broadcasts (EmulatorHandler+Broadcast)
//   anything else      -> 404 BadPath
//
// Per connection (userData): the key the connection is bound to, the last provider token seen and
// whether MAX_CONCURRENT_STREAMS has been raised (APNs starts at 1 until a token is accepted).

import APNs
import HTTP2
import Synchronization

final class EmulatorHandler: HTTP2RequestHandler {
    /// Per-connection authentication state. Loop-confined, like the connection.
    final class ConnectionState {
        // SAFETY: `@exclusivity(unchecked)`: a connection's state is touched only on its loop, by
        // one request at a time, never through overlapping accesses; read on every request, where
        // the dynamic checks cost more than the reads.
        @exclusivity(unchecked) var boundKeyID: String?
        @exclusivity(unchecked) var lastToken: String?
        @exclusivity(unchecked) var lastIssuedAt = 0
        var raised = false
        /// The quick path's scratch (EmulatorHandler+QuickPath).
        let quick = QuickPathState()
    }

    let configuration: EmulatorConfiguration
    let log: DeliveryLog
    let tokens: TokenRegistry
    let faults: FaultInjector
    /// The server this handler serves, for the control API's connection counts (set once started).
    let server = ServerReference()
    let limiter: TokenRateLimiter?
    let verifier: ProviderTokenVerifier
    /// UNIX seconds, for the rules stated in seconds.
    let clock: @Sendable () -> Int
    /// Milliseconds since 1970, for every millisecond field written.
    let milliseconds: @Sendable () -> Int
    /// The trusted keys by key id.
    let keysByID: [String: EmulatorConfiguration.ProviderKey]
    let channels: ChannelStore
    let broadcastHook: BroadcastHook
    let devices: DeviceRegistry
    /// The store the state is kept in, for the control API's stats; nil in memory only.
    let storeStatus: StoreStatus?
    /// The policy `answer` applies on a connection without a client certificate, made once: the
    /// quick path reads it in place for every push instead of copying a policy per request.
    let tokenAuthPolicy: DevicePushPolicy

    init(
        configuration: EmulatorConfiguration, log: DeliveryLog, tokens: TokenRegistry,
        faults: FaultInjector = FaultInjector(),
        clock: @escaping @Sendable () -> Int, milliseconds: (@Sendable () -> Int)? = nil,
        channels: ChannelStore = ChannelStore(),
        broadcastHook: BroadcastHook = BroadcastHook(), devices: DeviceRegistry? = nil,
        storeStatus: StoreStatus? = nil
    ) {
        self.storeStatus = storeStatus
        self.configuration = configuration
        self.log = log
        self.tokens = tokens
        self.faults = faults
        self.channels = channels
        self.broadcastHook = broadcastHook
        let milliseconds = milliseconds ?? { clock() * 1000 }
        self.devices = devices ?? DeviceRegistry(unregistered: tokens, clock: clock, millisecondClock: milliseconds)
        limiter = configuration.perTokenRateLimit.map(TokenRateLimiter.init(limit:))
        self.clock = clock
        self.milliseconds = milliseconds
        var policy = configuration.policy
        if !configuration.bundleIDs.isEmpty { policy.allowedBundleIDs = configuration.bundleIDs }
        policy.topicRequired = true
        tokenAuthPolicy = policy
        keysByID = Dictionary(configuration.keys.map { ($0.keyID, $0) }, uniquingKeysWith: { first, _ in first })
        verifier = ProviderTokenVerifier(
            keys: configuration.keys.map {
                .init(keyID: $0.keyID, teamID: $0.teamID, publicKey: $0.publicKey)
            })
    }

    func connectionOpened(_ connection: HTTP2ServerConnectionContext) {
        connection.userData = ConnectionState()
    }

    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        if faults.isEmpty, answerQuickly(request, responder: responder) { return }
        let path = request.path ?? ""
        if path.hasPrefix("/control/v1/") {
            handleControl(request, responder: responder)
            return
        }
        if let controlToken = configuration.controlToken, path.hasPrefix(DeviceAPI.prefix),
            !ControlAuthorization.allows(request.headers.valueBytes(for: "authorization"), token: controlToken)
        {
            ControlAuthorization.refuse(responder)
            return
        }
        if !faults.isEmpty, Self.isProviderPath(path) {
            if let fault = faults.fault(
                token: Self.target(ofPath: path) ?? request.headers.value(for: "apns-channel-id"),
                topic: request.headers.value(for: "apns-topic") ?? Self.bundleID(ofPath: path))
            {
                inject(fault, request: request, responder: responder)
                return
            }
            // No fault for this request: it is answered as if none were declared.
            if answerQuickly(request, responder: responder) { return }
        }
        answer(request, responder: responder)
    }

    /// A `/control/v1/` request, after the control token's check (when one is configured). The
    /// console's listener (EmulatorConsole) hands its control requests here too.
    func handleControl(_ request: HTTP2Request, responder: HTTP2Responder) {
        if let controlToken = configuration.controlToken,
            !ControlAuthorization.allows(request.headers.valueBytes(for: "authorization"), token: controlToken)
        {
            ControlAuthorization.refuse(responder)
            return
        }
        ControlAPI(
            log: log, tokens: tokens, faults: faults, server: server, milliseconds: milliseconds, store: storeStatus,
            devices: devices
        )
        .handle(request, responder: responder)
    }

    /// Answers a provider request as APNs would (after any injected fault and its latency).
    func answer(_ request: HTTP2Request, responder: HTTP2Responder) {
        let path = request.path ?? ""
        if Self.isBroadcastPath(path) {
            handleBroadcast(request, path: path, responder: responder)
            return
        }
        if path.hasPrefix(DeviceAPI.prefix) {
            raiseStreamLimitForDevice(responder.connection)
            DeviceAPI(devices: devices, defaultEnvironment: environment).handle(request, responder: responder)
            return
        }
        var headers: [(name: String, value: String)] = []
        for header in request.headers where !header.name.starts(with: [UInt8(ascii: ":")]) {
            headers.append((header.nameString, header.valueString))
        }
        let incoming = IncomingPushRequest(
            method: request.method ?? "", path: path, headers: headers, body: request.body)
        var policy = configuration.policy
        if !configuration.bundleIDs.isEmpty { policy.allowedBundleIDs = configuration.bundleIDs }
        let state = responder.connection.userData as? ConnectionState ?? ConnectionState()
        let usesCertificate = responder.connection.peerCertificate != nil
        policy.topicRequired = !usesCertificate
        if usesCertificate, let certificate = responder.connection.peerCertificate {
            let topics = Set(certificate.apnsTopics.map { Topic.bareBundleID($0) })
            if !topics.isEmpty { policy.allowedBundleIDs = topics }
            if topics.count == 1 { policy.defaultTopic = topics.first }
        }
        var unregisteredSince: Int?
        let outcome = DevicePushValidator.validateHeaders(incoming, policy: policy)
            .flatMap { headers -> Result<ValidatedHeaders, PushRejection> in
                // APNs answers 410 for a dead token before it looks at the provider token.
                if let since = tokens.unregisteredAt(headers.token.hex) {
                    unregisteredSince = since
                    return .failure(PushRejection(status: 410, reason: .unregistered, apnsID: headers.apnsID))
                }
                return .success(headers)
            }
            .flatMap { headers in checkRegistered(headers) }
            .flatMap { headers -> Result<ValidatedHeaders, PushRejection> in
                if usesCertificate {
                    return checkCertificate(responder.connection.peerCertificate, headers).map { headers }
                }
                return authenticate(
                    authorization: headers.authorization, apnsID: headers.apnsID, state: state,
                    connection: responder.connection
                ).flatMap { authorize(headers, state: state) }.map { headers }
            }
            .flatMap { headers -> Result<AcceptedPush, PushRejection> in
                // The session stopped keeping the body past PayloadLimits.voip + 1 bytes: too large
                // for any push type, which APNs answers with 413.
                if request.exceededBodyLimit {
                    return .failure(PushRejection(status: 413, reason: .payloadTooLarge, apnsID: headers.apnsID))
                }
                return DevicePushValidator.validatePayload(headers, body: request.body, policy: policy)
            }
            .flatMap { push -> Result<AcceptedPush, PushRejection> in
                if let limiter, !limiter.admit(push.token.hex, at: clock()) {
                    return .failure(PushRejection(status: 429, reason: .tooManyRequests, apnsID: push.apnsID))
                }
                return .success(push)
            }
        switch outcome {
        case .success(let push):
            let uniqueID = configuration.sandbox ? APNsID.random().value : nil
            var answer = [HTTP2Header("apns-id", push.apnsID)]
            if let uniqueID { answer.append(HTTP2Header("apns-unique-id", uniqueID)) }
            _ = responder.respond(status: 200, headers: answer)
            devices.deliver(push, receivedAt: milliseconds())
            record(
                push.token.hex, push.topic?.value, push.pushType.rawValue, push.priority.rawValue, push.apnsID,
                uniqueID,
                200, nil, push.payload, collapseID: push.collapseID?.value, expiration: push.expiration?.unixSeconds)
        case .failure(let rejection):
            let id = rejection.apnsID ?? APNsID.random().value
            var body = JSONObject([.init(key: "reason", value: .string(rejection.reason.rawValue))])
            if rejection.status == 410, let unregisteredSince {
                body["timestamp"] = .number(JSONNumber(unregisteredSince))
            }
            _ = responder.respond(
                status: rejection.status,
                headers: [HTTP2Header("apns-id", id), HTTP2Header("content-type", "application/json")],
                body: JSONValue.object(body).encoded())
            let token = path.hasPrefix("/3/device/") ? String(path.dropFirst("/3/device/".count)) : nil
            func header(_ name: String) -> String? { incoming.headers.first { $0.name == name }?.value }
            // What the request asked for, as far as it can be read: APNs's default priority when it
            // sent none, none when it sent one that is not a priority.
            let priority = header("apns-priority").map { (try? Priority(headerValue: $0))?.rawValue } ?? 10
            record(
                token, header("apns-topic"), header("apns-push-type"), priority, id, nil, rejection.status,
                rejection.reason.rawValue, request.body, collapseID: header("apns-collapse-id"),
                expiration: header("apns-expiration").flatMap { try? Expiration(headerValue: $0).unixSeconds })
        }
    }

    /// The provider-token checks APNs makes, in order: present, valid, not expired, from the key
    /// this connection is bound to, not replaced within 20 minutes.
    /// Broadcasts and channel management use it too, with their `apns-request-id` as `apnsID`.
    func authenticate(
        authorization: String?, apnsID: String, state: ConnectionState, connection: HTTP2ServerConnectionContext
    ) -> Result<Void, PushRejection> {
        let reject = { (reason: Reason) in
            Result<Void, PushRejection>.failure(
                PushRejection(status: reason.status ?? 403, reason: reason, apnsID: apnsID))
        }
        let now = clock()
        guard let authorization, !authorization.isEmpty else { return reject(.missingProviderToken) }
        let token = authorization.lowercased().hasPrefix("bearer ") ? String(authorization.dropFirst(7)) : authorization
        if token == state.lastToken {
            // Already verified on this connection: only its age can have changed.
            return now - state.lastIssuedAt > ProviderTokenVerifier.lifetimeSeconds
                ? reject(.expiredProviderToken) : .success(())
        }
        let verified: ProviderTokenVerifier.Verified
        do {
            verified = try verifier.verify(token: token, now: now)
        } catch {
            return reject(error.reason)
        }
        if let bound = state.boundKeyID, bound != verified.keyID { return reject(.unrelatedKeyIdInToken) }
        if state.lastToken != nil, verified.issuedAt - state.lastIssuedAt < ProviderTokenCache.minimumRefreshAge {
            return reject(.tooManyProviderTokenUpdates)
        }
        state.boundKeyID = verified.keyID
        state.lastToken = token
        state.lastIssuedAt = verified.issuedAt
        if !state.raised {
            state.raised = true
            _ = connection.setMaxConcurrentStreams(configuration.authenticatedMaxConcurrentStreams)
        }
        return .success(())
    }

    func record(
        _ token: String?, _ topic: String?, _ pushType: String?, _ priority: Int?, _ apnsID: String?,
        _ uniqueID: String?,
        _ status: Int, _ reason: String?, _ payload: [UInt8], fault: String? = nil, collapseID: String? = nil,
        expiration: Int? = nil
    ) {
        log.append(
            Delivery(
                receivedAt: milliseconds(), token: token, topic: topic, pushType: pushType, priority: priority,
                apnsID: apnsID,
                uniqueID: uniqueID, status: status, reason: reason, payload: payload, fault: fault,
                collapseID: collapseID,
                expiration: expiration))
    }
}

extension Topic {
    /// The bundle id of a certificate topic (`com.example.app.voip` -> `com.example.app`).
    static func bareBundleID(_ topic: String) -> String {
        (try? Topic(topic))?.bundleID ?? topic
    }
}
