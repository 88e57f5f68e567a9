// The emulator's hot path: a device push on a token-authenticated connection that APNs accepts,
// answered from the request's header bytes.
//
//   /3/device/<token>, no fault declared, no rate limit, no client certificate
//     -> scanHeaders over the raw header bytes (no String per header)
//     -> token not unregistered (and registered by a simulated device, with strict tokens)
//     -> authorization identical, byte for byte, to the one last accepted on this connection
//        (else the full provider-token check, once per token)
//     -> the key may push to this topic here -> payload checks over bytes (JSONValidator)
//     -> 200: apns-id (the request's, lowercased, or generated) and apns-unique-id written into a
//        reused header buffer; the delivery recorded
//
// A token a simulated device registered also gets the notification, built the slow way (only such
// tokens pay for it). Anything else (a rejection of any kind, a Unicode corner the byte scan leaves
// to Strings) goes to `answer`, which validates the request again from the start and answers it.
// The quick path changes no state before it knows the answer is 200, except accepting a new
// provider token, which `answer` then finds already accepted (exactly what it would have done
// itself), so the answers are the ones `answer` alone gives.
//
// The answer's two headers go through a reused `HTTP2HeaderBuffer` (nghttp2 copies their few
// bytes at submit) rather than a NO_COPY block: NO_COPY memory must stay unchanged until the frame is
// serialized, and these values change with every answer. Their values are plain values (the
// session writes them into the frame, not Huffman-coded; HTTP2HeaderBuffer).

import APNs
import HTTP2

#if canImport(Glibc)
    import Glibc
#endif

/// Per-connection scratch for the quick path. Loop-confined, like the connection.
///
/// SAFETY: its stored properties are `@exclusivity(unchecked)`: touched only on the connection's
/// loop, one request at a time, and the quick path never holds two overlapping accesses to one
/// property (`writeUUID(&apnsID, using: &random)` touches two different ones).
final class QuickPathState {
    /// The `authorization` header last accepted on this connection, byte for byte.
    @exclusivity(unchecked) var lastAuthorization: [UInt8] = []
    /// `ConnectionState.lastToken` when `lastAuthorization` was accepted: if it has changed since
    /// (`answer` accepted another token), the bytes no longer say which token is current.
    @exclusivity(unchecked) var acceptedToken: String?
    /// The key of `acceptedToken` (the connection's bound key), looked up once per token.
    @exclusivity(unchecked) var boundKey: EmulatorConfiguration.ProviderKey?
    /// The answer's headers, refilled per answer (nghttp2 copies them when the answer is submitted).
    @exclusivity(unchecked) var headers = HTTP2HeaderBuffer()
    /// For generated ids: seeded once per connection from the system generator. An emulator's ids
    /// must be unique, not unpredictable.
    @exclusivity(unchecked) var random: SplitMix64
    @exclusivity(unchecked) var apnsID = [UInt8](repeating: 0, count: 36)
    @exclusivity(unchecked) var uniqueID = [UInt8](repeating: 0, count: 36)

    /// The answer headers were built once (with indexing, which put the names in the HPACK tables),
    /// and since then with the values never indexed: `headers` can be refilled in place.
    @exclusivity(unchecked) var headersBuilt = false
    @exclusivity(unchecked) var namesIndexed = false

    init() {
        var system = SystemRandomNumberGenerator()
        random = SplitMix64(seed: system.next())
    }

    /// Puts this answer's ids in `headers`: in place once the buffer has its two fields (the ids
    /// always take 36 bytes), rebuilt otherwise.
    ///
    /// The connection's first answer indexes its two fields, so that the names enter both sides'
    /// HPACK tables; every later answer sends its never-repeating values never-indexed but names
    /// them by that index (no literal name to Huffman-code and decode each time).
    func refillHeaders(sandbox: Bool) {
        let fields = sandbox ? 2 : 1
        if headers.count == fields, namesIndexed,
            apnsID.withUnsafeBytes({ headers.replaceValue(at: 0, with: $0) }),
            !sandbox || uniqueID.withUnsafeBytes({ headers.replaceValue(at: 1, with: $0) })
        {
            return
        }
        let neverIndex = headersBuilt
        headers.removeAll()
        append(EmulatorHandler.apnsIDName, apnsID, neverIndex: neverIndex)
        if sandbox { append(EmulatorHandler.uniqueIDName, uniqueID, neverIndex: neverIndex) }
        namesIndexed = headersBuilt
        headersBuilt = true
    }

    /// Appends one answer header.
    func append(_ name: [UInt8], _ value: [UInt8], neverIndex: Bool) {
        name.withUnsafeBufferPointer { name in
            value.withUnsafeBufferPointer { value in
                // Never indexed (after the first answer): the values never repeat, so indexing them
                // would only churn the HPACK tables on both sides; and sent plain, as Huffman-coding
                // a fresh id for every answer costs more than the few bytes it saves.
                headers.append(
                    name: UnsafeRawBufferPointer(name), value: UnsafeRawBufferPointer(value), neverIndex: neverIndex,
                    plainValue: neverIndex)
            }
        }
    }
}

extension EmulatorHandler {
    /// Answers `request` if it is an accepted device push on the quick path; false when `answer`
    /// must (nothing has been sent then).
    func answerQuickly(_ request: HTTP2Request, responder: HTTP2Responder) -> Bool {
        guard limiter == nil, responder.connection.peerCertificate == nil,
            let state = responder.connection.userData as? ConnectionState
        else { return false }
        let headers = request.headers
        return headers.withUnsafeLayout { storage, layout in
            let fields = RawHeaderTable(storage: storage, layout: layout, first: headers.pseudoHeaderCount)
            let (method, path) = Self.methodAndPath(fields)
            guard let method, let path, path.count > 10, path[9] == UInt8(ascii: "/"), path[1] == UInt8(ascii: "3"),
                path[3] == UInt8(ascii: "d")  // "/3/device/": scanHeaders checks every byte
            else { return false }
            guard
                case .accepted(let scan) = DevicePushValidator.scanHeaders(
                    fields, method: method, path: path, policy: tokenAuthPolicy)
            else { return false }
            let tokenBytes = UnsafeBufferPointer(rebasing: path[ScannedPushHeaders.tokenOffset...])
            // The token as a String only for the registries' lookups, when they hold anything.
            let token: String? =
                tokens.isEmpty && !devices.hasRoutes
                ? nil
                : String(unsafeUninitializedCapacity: tokenBytes.count) { buffer in
                    for (index, byte) in tokenBytes.enumerated() { buffer[index] = byte | (byte >= 0x41 ? 0x20 : 0) }
                    return tokenBytes.count
                }
            let route = token.flatMap { devices.route(for: $0) }
            guard token.map({ tokens.unregisteredAt($0) == nil }) ?? true,
                !configuration.strictTokens || isRoutable(scan, route: route, fields: fields),
                acceptAuthorization(scan.authorizationField.map(fields.value(at:)), state: state, responder: responder),
                keyMayPush(scan, fields: fields, state: state),
                request.body.withUnsafeBufferPointer({
                    DevicePushValidator.payloadProblem($0, pushType: scan.pushType, policy: tokenAuthPolicy) == nil
                })
            else { return false }

            let quick = state.quick
            if let field = scan.apnsIDField {
                let id = fields.value(at: field)
                for index in 0..<36 { quick.apnsID[index] = id[index] | (id[index] >= 0x41 ? 0x20 : 0) }
            } else {
                Self.writeUUID(&quick.apnsID, using: &quick.random)
            }
            if configuration.sandbox { Self.writeUUID(&quick.uniqueID, using: &quick.random) }
            quick.refillHeaders(sandbox: configuration.sandbox)
            responder.respond(status: 200, headerBlock: nil, extraHeaders: quick.headers, body: [])
            // Only a registered token can reach a simulated device: the notification (which parses
            // the payload) is made only for one.
            if route != nil,
                let headers = scan.validatedHeaders(
                    fields, path: path, generatedID: String(decoding: quick.apnsID, as: UTF8.self)),
                case .success(let push) = DevicePushValidator.validatePayload(
                    headers, body: request.body, policy: tokenAuthPolicy)
            {
                devices.deliver(push, receivedAt: milliseconds())
            }
            let uniqueID = configuration.sandbox ? quick.uniqueID : nil
            if scan.topicField == nil, let topic = scan.defaultTopic {  // a policy's default topic: rare
                record(
                    token ?? String(decoding: tokenBytes, as: UTF8.self).lowercased(), topic.value,
                    scan.pushType.rawValue, scan.priority.rawValue,
                    String(decoding: quick.apnsID, as: UTF8.self),
                    uniqueID.map { String(decoding: $0, as: UTF8.self) }, 200, nil, request.body,
                    collapseID: scan.collapseIDField.map { String(decoding: fields.value(at: $0), as: UTF8.self) },
                    expiration: scan.expiration?.unixSeconds)
                return true
            }
            // Encoded into the log's rows from the bytes: no record made.
            quick.apnsID.withUnsafeBufferPointer { apnsID in
                (uniqueID ?? []).withUnsafeBufferPointer { unique in
                    request.body.withUnsafeBytes { payload in
                        DeliveryRecord.withAcceptedFields(
                            acceptedAt: milliseconds(), token: tokenBytes,
                            topic: scan.topicField.map(fields.value(at:)), pushType: scan.pushType.rawValue,
                            priority: scan.priority.rawValue, apnsID: apnsID,
                            uniqueID: uniqueID == nil ? nil : unique, payload: payload,
                            expiration: scan.expiration?.unixSeconds,
                            collapseID: scan.collapseIDField.map(fields.value(at:))
                        ) { log.append($0, reason: nil) }
                    }
                }
            }
            return true
        }
    }

    /// Whether the provider token is accepted: the header this connection last accepted, byte for
    /// byte and not yet expired, or a new one that passes ``authenticate``.
    private func acceptAuthorization(
        _ header: UnsafeBufferPointer<UInt8>?, state: ConnectionState, responder: HTTP2Responder
    ) -> Bool {
        guard let header, !header.isEmpty else { return false }
        let quick = state.quick
        let same =
            header.count == quick.lastAuthorization.count
            && quick.lastAuthorization.withUnsafeBufferPointer { last in
                guard let left = last.baseAddress, let right = header.baseAddress else { return false }
                return memcmp(left, right, header.count) == 0
            }
        // Comparing the same String storage is one pointer comparison.
        if same, let accepted = quick.acceptedToken, state.lastToken == accepted {
            return clock() - state.lastIssuedAt <= ProviderTokenVerifier.lifetimeSeconds
        }
        let text = String(decoding: header, as: UTF8.self)
        guard
            case .success = authenticate(
                authorization: text, apnsID: "", state: state, connection: responder.connection)
        else { return false }
        quick.lastAuthorization = Array(header)
        quick.acceptedToken = state.lastToken
        quick.boundKey = state.boundKeyID.flatMap { keysByID[$0] }
        return true
    }

    /// ``checkRegistered`` for strict tokens: a device registered the token, in this environment,
    /// for the topic's app.
    private func isRoutable(_ scan: ScannedPushHeaders, route: DeviceRegistry.Route?, fields: RawHeaderTable)
        -> Bool
    {
        guard let route, route.environment == environment else { return false }
        let topic =
            scan.topicField.flatMap { try? Topic(String(decoding: fields.value(at: $0), as: UTF8.self)) }
            ?? scan.defaultTopic
        return topic.map { $0.bundleID == route.bundleID } ?? true
    }

    /// ``authorize`` without the strings: the bound key is valid in this environment and its team
    /// owns the topic.
    private func keyMayPush(_ scan: ScannedPushHeaders, fields: RawHeaderTable, state: ConnectionState) -> Bool {
        guard let key = state.quick.boundKey else { return true }
        switch (key.environment, configuration.sandbox) {
        case (.sandbox, false), (.production, true): return false
        default: break
        }
        guard !key.bundleIDs.isEmpty else { return true }
        let topic =
            scan.topicField.flatMap { try? Topic(String(decoding: fields.value(at: $0), as: UTF8.self)) }
            ?? scan.defaultTopic
        guard let topic else { return true }
        return key.bundleIDs.contains(topic.bundleID)
    }

    static let apnsIDName = Array("apns-id".utf8)
    static let uniqueIDName = Array("apns-unique-id".utf8)

    /// A random (version 4) UUID in lowercase 8-4-4-4-12 form, written over `buffer` (36 bytes).
    static func writeUUID(_ buffer: inout [UInt8], using random: inout SplitMix64) {
        let high = random.next()
        let low = random.next()
        buffer.withUnsafeMutableBufferPointer { APNsID.writeVersion4(high: high, low: low, into: $0) }
    }
}

extension EmulatorHandler {
    /// The values of `:method` and `:path` among the pseudo-headers before `fields.first`, in one
    /// pass (the first of each: the HTTP/2 layer has already refused a repeated pseudo-header).
    static func methodAndPath(_ fields: RawHeaderTable) -> (UnsafeBufferPointer<UInt8>?, UnsafeBufferPointer<UInt8>?) {
        var method: UnsafeBufferPointer<UInt8>?
        var path: UnsafeBufferPointer<UInt8>?
        let layout = fields.layout
        for index in 0..<fields.first {
            let start = Int(layout[3 * index])
            let nameCount = Int(layout[3 * index + 1])
            let value = UnsafeBufferPointer(
                rebasing: fields.storage[start + nameCount..<start + nameCount + Int(layout[3 * index + 2])])
            let name = UnsafeBufferPointer(rebasing: fields.storage[start..<start + nameCount])
            if method == nil, Self.matches(name, ":method") {
                method = value
            } else if path == nil, Self.matches(name, ":path") {
                path = value
            }
        }
        return (method, path)
    }

    /// Whether `bytes` are exactly `text`.
    static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount, let base = bytes.baseAddress else { return false }
        return memcmp(base, text.utf8Start, bytes.count) == 0
    }
}
