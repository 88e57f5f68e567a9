import APNs
import HTTP2

// The request's headers as the transport sends them: `:method`, `:scheme`, `:authority` and
// `authorization` are the same for every request to an endpoint (until the provider token is
// refreshed), so the transport keeps them in one NO_COPY block (`staticFields`); the rest is
// written straight from the notification's values into a reused byte buffer, without building a
// string per header.

extension APNsRequest {
    /// What the static block holds: `:method`, `:scheme`, `:authority` and, with token auth,
    /// `authorization`. Two requests with equal keys share a block.
    struct StaticKey: Equatable {
        let authority: String
        let authorization: String?
    }

    var staticKey: StaticKey { StaticKey(authority: authority, authorization: authorization) }

    /// The static block for `key` (`scheme` is the endpoint's); with `wire`, its push type, topic
    /// and priority too (then `WireValues.appendPerRequest` writes the rest).
    static func staticFields(
        _ key: StaticKey, scheme: String, constantsOf wire: WireValues? = nil
    ) throws(HTTP2Error) -> HTTP2HeaderBlock {
        var headers = [
            HTTP2Header(":method", "POST"), HTTP2Header(":scheme", scheme), HTTP2Header(":authority", key.authority),
        ]
        if let authorization = key.authorization { headers.append(HTTP2Header("authorization", authorization)) }
        if let wire {
            headers.append(HTTP2Header("apns-push-type", wire.pushType.rawValue))
            if let topic = wire.topic { headers.append(HTTP2Header("apns-topic", topic)) }
            if let priority = wire.priority { headers.append(HTTP2Header("apns-priority", priority.headerValue)) }
        }
        // `authorization` encoded once per block: nghttp2 sends it never-indexed, and would otherwise
        // Huffman-code the whole provider token (the longest header) again in every request.
        return try HTTP2HeaderBlock(headers, preEncoding: "authorization")
    }

    /// Appends the headers that change from request to request (`:path`, the `apns-*` headers) to
    /// `buffer`, in the order APNs documents them. Values that identify one notification are sent
    /// never-indexed, so they do not churn the HPACK table; `:path` and `apns-id`, different in
    /// almost every request, as plain values (not Huffman-coded, see `HTTP2HeaderBuffer`).
    func appendVaryingHeaders(to buffer: inout HTTP2HeaderBuffer) {
        fixed.wire?.append(apnsID: fixed.apnsID, to: &buffer)
    }

    /// A notification's header values, taken out of it once when the request is made, so that
    /// writing them (again on a resend) reads strings from one object instead of copying the
    /// notification.
    struct WireValues: Sendable {
        let tokenHex: String
        let pushType: PushType
        let topic: String?
        let priority: Priority?
        let expiration: String?
        let collapseID: String?

        // `.map { $0.value }`, not `?.value`: optional chaining copies the APNs module's optional
        // values through the generic Optional value witness, a call per field per request.
        init(_ notification: borrowing Notification) {
            tokenHex = notification.token.hex
            pushType = notification.pushType
            topic = notification.topic.map { $0.value }
            priority = notification.priority
            expiration = notification.expiration.map { $0.headerValue }
            collapseID = notification.collapseID.map { $0.value }
        }

        func append(apnsID: String, to buffer: inout HTTP2HeaderBuffer) {
            APNsRequest.bytes(of: tokenHex) { token in
                APNsRequest.append(":path", valuePrefix: "/3/device/", token, plainValue: true, to: &buffer)
            }
            APNsRequest.append("apns-push-type", pushType.rawValue, to: &buffer)
            if let topic { APNsRequest.append("apns-topic", topic, to: &buffer) }
            if let priority {
                let value: StaticString =
                    switch priority {
                    case .immediate: "10"
                    case .powerConsiderate: "5"
                    case .low: "1"
                    }
                value.withUTF8Buffer { APNsRequest.append("apns-priority", UnsafeRawBufferPointer($0), to: &buffer) }
            }
            appendIdentifying(apnsID: apnsID, to: &buffer)
        }

        /// Appends the fields a block made with `staticFields(_:scheme:constantsOf:)` leaves out:
        /// `:path`, `apns-expiration`, `apns-collapse-id`, `apns-id`.
        func appendPerRequest(apnsID: String, to buffer: inout HTTP2HeaderBuffer) {
            APNsRequest.bytes(of: tokenHex) { token in
                APNsRequest.append(":path", valuePrefix: "/3/device/", token, plainValue: true, to: &buffer)
            }
            appendIdentifying(apnsID: apnsID, to: &buffer)
        }

        /// The fields that identify one notification, never indexed.
        private func appendIdentifying(apnsID: String, to buffer: inout HTTP2HeaderBuffer) {
            if let expiration { APNsRequest.append("apns-expiration", expiration, neverIndex: true, to: &buffer) }
            if let collapseID { APNsRequest.append("apns-collapse-id", collapseID, neverIndex: true, to: &buffer) }
            APNsRequest.append("apns-id", apnsID, plainValue: true, to: &buffer)
        }
    }

    /// Appends every header of a request whose headers were replaced through `headers` (no static
    /// block), `:scheme` being the endpoint's.
    func appendAllHeaders(scheme: String, to buffer: inout HTTP2HeaderBuffer) {
        for (name, value) in headers {
            if name == ":scheme" {
                buffer.append(name, scheme)
                continue
            }
            let neverIndex =
                name == ":path" || name == "apns-id" || name == "apns-expiration" || name == "apns-collapse-id"
            buffer.append(name, value, neverIndex: neverIndex)
        }
    }

    fileprivate static func append(
        _ name: StaticString, _ value: String, neverIndex: Bool = false, plainValue: Bool = false,
        to buffer: inout HTTP2HeaderBuffer
    ) {
        bytes(of: value) { append(name, $0, neverIndex: neverIndex, plainValue: plainValue, to: &buffer) }
    }

    fileprivate static func append(
        _ name: StaticString, valuePrefix: StaticString = "", _ value: UnsafeRawBufferPointer, neverIndex: Bool = false,
        plainValue: Bool = false, to buffer: inout HTTP2HeaderBuffer
    ) {
        name.withUTF8Buffer { name in
            valuePrefix.withUTF8Buffer { prefix in
                buffer.append(
                    name: UnsafeRawBufferPointer(name), valuePrefix: UnsafeRawBufferPointer(prefix), value: value,
                    neverIndex: neverIndex, plainValue: plainValue)
            }
        }
    }

    /// Runs `body` over the string's UTF-8 bytes without copying them when they are contiguous.
    fileprivate static func bytes(of string: String, _ body: (UnsafeRawBufferPointer) -> Void) {
        if string.utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) != nil { return }
        var copy = string
        copy.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }
}
