import APNs

/// The HTTP/2 request for one notification: pseudo-headers and APNs headers in the order sent,
/// and the payload bytes. Built once per notification; a resend reuses it with the same apns-id.
///
/// It keeps the notification's typed values rather than a list of strings: the transport writes
/// them straight into its header bytes (`APNsRequest+Wire.swift`), and `headers` builds the list
/// only when asked (fakes, tests, logs).
public struct APNsRequest: Sendable, Equatable {
    public var body: [UInt8]
    /// What does not change after init, in one shared object: copying a request (into the pool's
    /// slot, into a task's frame) retains it once instead of every string in the notification, and
    /// the struct stays small enough that Swift copies and destroys it inline, not through value
    /// witnesses.
    let fixed: Fixed
    /// The apns-id sent (generated when the notification has none, so every send can be logged).
    public var apnsID: String { fixed.apnsID }
    /// A device push made from a notification (not channel management or a broadcast).
    var isNotification: Bool {
        if case .some = fixed.wire { return true }
        return false
    }
    /// `:authority`, the same for every request to an endpoint.
    var authority: String { fixed.authority }
    /// `bearer <JWT>`, or nil with certificate auth.
    var authorization: String? { fixed.authorization }

    /// The immutable part of a request.
    final class Fixed: Sendable {
        let apnsID: String
        let authority: String
        let authorization: String?
        /// The notification's header values as sent, taken out of it once (the notification itself
        /// is not kept: copying it retains every one of its strings); nil for other requests (channel
        /// management, broadcasts), whose headers are all in `replacedHeaders`.
        let wire: WireValues?

        init(apnsID: String, authority: String, authorization: String?, wire: WireValues?) {
            self.apnsID = apnsID
            self.authority = authority
            self.authorization = authorization
            self.wire = wire
        }
    }

    /// Headers set through `headers`, which then replace the notification's.
    private var replacedHeaders: [(name: String, value: String)]?

    /// Pseudo-headers and APNs headers in the order sent.
    public var headers: [(name: String, value: String)] {
        get { replacedHeaders ?? fieldList }
        set { replacedHeaders = newValue }
    }

    /// True while the headers are the notification's own (not replaced through `headers`).
    var hasNotificationHeaders: Bool { replacedHeaders == nil }

    public static func == (lhs: APNsRequest, rhs: APNsRequest) -> Bool {
        lhs.body == rhs.body && lhs.apnsID == rhs.apnsID && lhs.headers.elementsEqual(rhs.headers) { $0 == $1 }
    }

    /// `authorization` is `bearer <JWT>` for token auth, nil with a client certificate.
    public init(notification: borrowing APNsNotification, authority: String, authorization: String?) {
        let id = notification.apnsID.map { $0.value } ?? APNsID.random().value
        self.body = notification.payload.bytes
        self.fixed = Fixed(
            apnsID: id, authority: authority, authorization: authorization, wire: WireValues(notification))
    }

    /// `request` again with another authorization (a provider token signed since): the same
    /// notification, apns-id and body.
    init(resending request: APNsRequest, authorization: String?) {
        fixed = Fixed(
            apnsID: request.fixed.apnsID, authority: request.fixed.authority, authorization: authorization,
            wire: request.fixed.wire)
        body = request.body
        replacedHeaders = request.replacedHeaders
    }

    /// Any request (channel management, broadcasts): `method` and `path`, then `authorization`
    /// when given, then `headers` in order. `apnsID` is the id the request carries (its
    /// `apns-request-id` for broadcasts and channel management), for logs and error reports. Sent
    /// without the transport's static block, every header as given.
    public init(
        method: String, path: String, authority: String, authorization: String?,
        headers extra: [(name: String, value: String)], body: [UInt8], apnsID: String
    ) {
        var headers: [(name: String, value: String)] = [
            (":method", method), (":scheme", "https"), (":path", path), (":authority", authority),
        ]
        if let authorization { headers.append(("authorization", authorization)) }
        self.fixed = Fixed(apnsID: apnsID, authority: authority, authorization: authorization, wire: nil)
        self.replacedHeaders = headers + extra
        self.body = body
    }

    /// The `:method` (POST unless the request says otherwise).
    public var method: String {
        header(":method") ?? "POST"
    }

    /// The value of the first header named `name`.
    public func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    private var fieldList: [(name: String, value: String)] {
        guard let wire = fixed.wire else { return [] }
        var headers: [(name: String, value: String)] = [
            (":method", "POST"),
            (":scheme", "https"),
            (":path", "/3/device/\(wire.tokenHex)"),
            (":authority", authority),
        ]
        if let authorization { headers.append(("authorization", authorization)) }
        headers.append(("apns-push-type", wire.pushType.rawValue))
        if let topic = wire.topic { headers.append(("apns-topic", topic)) }
        if let priority = wire.priority { headers.append(("apns-priority", priority.headerValue)) }
        if let expiration = wire.expiration { headers.append(("apns-expiration", expiration)) }
        if let collapseID = wire.collapseID { headers.append(("apns-collapse-id", collapseID)) }
        headers.append(("apns-id", apnsID))
        return headers
    }
}
