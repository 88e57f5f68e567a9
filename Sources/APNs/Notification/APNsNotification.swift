/// One notification for one device: the token, the headers and the encoded payload.
///
/// Values are validated when they are made (`DeviceToken`, `Topic`, `CollapseID`, ...), and the
/// payload is encoded once, when the notification is created; `lint()` checks the rules that span
/// several fields (topic suffix for the push type, priority for the push type, size limit, and every
/// payload rule).
///
/// Named `APNsNotification`, not `Notification`: Foundation has a `Notification` too, and a file
/// that imports both modules could not name either without its module (`APNs.Notification`).
/// Swift prefers no module over another, so only a distinct name lets such a file write it bare.
public struct APNsNotification: Sendable, Hashable {
    public var token: DeviceToken
    public var topic: Topic?
    public var pushType: PushType
    public var priority: Priority?
    public var expiration: Expiration?
    public var collapseID: CollapseID?
    /// nil lets APNs generate one (the client may generate it first, to log it).
    public var apnsID: APNsID?
    public var payload: EncodedPayload

    public init(
        token: DeviceToken, topic: Topic?, pushType: PushType = .alert, priority: Priority? = nil,
        expiration: Expiration? = nil, collapseID: CollapseID? = nil, apnsID: APNsID? = nil, payload: EncodedPayload
    ) {
        self.token = token
        self.topic = topic
        self.pushType = pushType
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
        self.apnsID = apnsID
        self.payload = payload
    }

    /// A notification with a payload built in Swift (encoded here, once).
    public init(
        token: DeviceToken, topic: Topic?, pushType: PushType = .alert, priority: Priority? = nil,
        expiration: Expiration? = nil, collapseID: CollapseID? = nil, apnsID: APNsID? = nil, payload: Payload
    ) {
        self.init(
            token: token, topic: topic, pushType: pushType, priority: priority, expiration: expiration,
            collapseID: collapseID, apnsID: apnsID, payload: payload.encoded())
    }

    /// The payload limit that applies to this notification.
    public var payloadLimit: Int { pushType.payloadLimit }

    /// The request as the linter sees it (header values as they go on the wire).
    public var lintRequest: LintRequest {
        LintRequest(
            payload: payload.bytes, pushType: pushType.rawValue, topic: topic?.value, priority: priority?.headerValue,
            expiration: expiration?.headerValue, collapseID: collapseID?.value, apnsID: apnsID?.value, token: token.hex)
    }

    /// Every finding for this notification.
    public func lint(now: Int? = nil) -> LintReport {
        var request = lintRequest
        request.now = now
        return Linter.lint(request)
    }
}

/// The old name, inside the Herald package only (`package`, so it never reaches a user who imports
/// Foundation): Herald's own targets still say `Notification`.
package typealias Notification = APNsNotification
