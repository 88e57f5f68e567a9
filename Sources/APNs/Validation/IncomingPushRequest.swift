// What the APNs emulator's validation core reads and answers: the request as received, Apple's
// rejection (status, reason, apns-id to echo), and a push APNs would accept. No I/O.

/// A request to `/3/device/<token>` as the HTTP/2 layer received it.
public struct IncomingPushRequest: Sendable {
    /// `:method`.
    public var method: String
    /// `:path`.
    public var path: String
    /// The regular headers as received (lowercase names), in order; pseudo-headers excluded.
    public var headers: [(name: String, value: String)]
    /// The request body (DATA frames), as received.
    public var body: [UInt8]

    public init(method: String, path: String, headers: [(name: String, value: String)], body: [UInt8]) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }
}

/// APNs's answer to a request it refuses: the status, the `reason` of the JSON body and the
/// `apns-id` to echo.
public struct PushRejection: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status; the validator takes it from the reason table (`Reason.status`).
    public let status: Int
    public let reason: Reason
    /// The `apns-id` to answer with: the request's (lowercase) when it sent a valid one, else a
    /// generated lowercase UUID, as APNs does.
    public let apnsID: String?

    /// `status` must be the reason's status from `Reason.table`.
    public init(status: Int, reason: Reason, apnsID: String?) {
        self.status = status
        self.reason = reason
        self.apnsID = apnsID
    }

    public var description: String {
        "\(status) \(reason)" + (apnsID.map { " (apns-id \($0))" } ?? "")
    }
}

/// A device push APNs accepts (200): the parsed headers and the payload as sent.
public struct AcceptedPush: Sendable, Equatable {
    public let token: DeviceToken
    /// The topic pushed to: `apns-topic`, or the policy's default topic; nil only when the policy
    /// requires none and none was given.
    public let topic: Topic?
    /// `apns-push-type`; `alert` when absent.
    public let pushType: PushType
    /// `apns-priority`; 10 when absent (what APNs assumes).
    public let priority: Priority
    /// `apns-expiration`; nil when absent (APNs's default storage).
    public let expiration: Expiration?
    public let collapseID: CollapseID?
    /// The request's `apns-id` in lowercase, or a generated one when it sent none.
    public let apnsID: String
    /// The body, byte for byte.
    public let payload: [UInt8]
}

/// The headers of a device push that passed every check that needs neither the provider token
/// nor the payload. Only `DevicePushValidator.validateHeaders` makes one.
public struct ValidatedHeaders: Sendable, Equatable {
    public let token: DeviceToken
    public let topic: Topic?
    public let pushType: PushType
    public let priority: Priority
    public let expiration: Expiration?
    public let collapseID: CollapseID?
    /// The request's `apns-id` in lowercase, or a generated one; echoed by every later answer.
    public let apnsID: String
    /// The `authorization` header as sent (`bearer <JWT>` with token auth), for the emulator's
    /// provider-token check; nil when absent.
    public let authorization: String?
}
