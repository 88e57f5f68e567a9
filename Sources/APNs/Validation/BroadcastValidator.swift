// The APNs emulator's answer to `POST /4/broadcasts/apps/<bundle-id>` (APNS-REFERENCE.md,
// "Broadcast push (iOS 18)", "Live Activity payload"), as pure functions.
//
// Apple documents the reasons but not their order; this follows the device-push validator's:
//
//   headers:  BadMessageId (apns-request-id), MethodNotAllowed, BadPath, TopicDisallowed (a
//             push-type suffix on the bundle id) / TopicMismatch / FeatureNotEnabled,
//             MissingPushType, InvalidPushType (anything but liveactivity), MissingChannelId,
//             BadChannelId, BadPriority (5 or 10 only), BadExpirationDate (malformed)
//   (the emulator checks the provider token here)
//   channel:  ChannelNotRegistered, BadExpirationDate (not 0 on a no-storage channel)
//   payload:  PayloadEmpty, PayloadTooLarge (5120 bytes), BadRequestPayload (not a JSON object, or
//             not a Live Activity update or end: aps.event "update"/"end", aps.timestamp a number,
//             aps.content-state an object on update)

/// The headers of a broadcast that passed every check needing neither the provider token, the
/// channel store nor the payload. Only `BroadcastValidator.validateHeaders` makes one.
public struct BroadcastHeaders: Sendable, Equatable {
    public let bundleID: String
    public let channelID: ChannelID
    /// `apns-priority`; 10 when absent.
    public let priority: Priority
    public let expiration: Expiration?
    /// The request's `apns-request-id` (lowercase), or a generated one; every answer carries it.
    public let requestID: String
    /// The `authorization` header as sent; nil when absent.
    public let authorization: String?
}

/// A broadcast APNs accepts (200), for the emulator's log and its fan-out to devices.
public struct AcceptedBroadcast: Sendable, Equatable {
    public let bundleID: String
    public let channelID: ChannelID
    /// The channel's policy at the time of the send (policies never change).
    public let storagePolicy: MessageStoragePolicy
    public let priority: Priority
    /// `apns-expiration`; `.immediately` on a no-storage channel even when the header was absent,
    /// nil when absent on a storing channel (APNs's default storage).
    public let expiration: Expiration?
    public let requestID: String
    /// The body, byte for byte.
    public let payload: [UInt8]

    public init(
        bundleID: String, channelID: ChannelID, storagePolicy: MessageStoragePolicy, priority: Priority,
        expiration: Expiration?, requestID: String, payload: [UInt8]
    ) {
        self.bundleID = bundleID
        self.channelID = channelID
        self.storagePolicy = storagePolicy
        self.priority = priority
        self.expiration = expiration
        self.requestID = requestID
        self.payload = payload
    }
}

/// Validates broadcast sends as APNs does. See the file comment for the order of checks.
public enum BroadcastValidator {
    /// Header phase.
    public static func validateHeaders(
        _ request: IncomingPushRequest, policy: BroadcastPolicy
    ) -> Result<BroadcastHeaders, PushRejection> {
        let fields = HeaderFields(request.headers)
        let (requestID, malformed) = fields.requestID()
        func reject(_ reason: Reason) -> Result<BroadcastHeaders, PushRejection> {
            .failure(DevicePushValidator.rejection(reason, apnsID: requestID))
        }
        if malformed { return reject(.badMessageId) }
        guard request.method == "POST" else { return reject(.methodNotAllowed) }
        guard request.path.hasPrefix(BroadcastPaths.broadcastPrefix) else { return reject(.badPath) }
        let bundleID = String(request.path.dropFirst(BroadcastPaths.broadcastPrefix.count))
        guard !bundleID.isEmpty, !bundleID.contains("/") else { return reject(.badPath) }
        if let reason = policy.problem(withBundleID: bundleID) { return reject(reason) }

        guard let pushType = fields["apns-push-type"], !pushType.isEmpty else { return reject(.missingPushType) }
        guard (try? PushType(headerValue: pushType)) == .liveactivity else { return reject(.invalidPushType) }
        guard let channelText = fields["apns-channel-id"], !channelText.isEmpty else {
            return reject(.missingChannelId)
        }
        guard let channelID = try? ChannelID(channelText) else { return reject(.badChannelId) }

        var priority = Priority.immediate
        if let value = fields["apns-priority"] {
            guard let parsed = try? Priority(headerValue: value), parsed != .low else { return reject(.badPriority) }
            priority = parsed
        }
        var expiration: Expiration?
        if let value = fields["apns-expiration"] {
            guard let parsed = try? Expiration(headerValue: value) else { return reject(.badExpirationDate) }
            expiration = parsed
        }
        return .success(
            BroadcastHeaders(
                bundleID: bundleID, channelID: channelID, priority: priority, expiration: expiration,
                requestID: requestID,
                authorization: fields["authorization"]))
    }

    /// Channel and payload phase, after the provider token: `storagePolicy` is the channel's, or
    /// nil when the app has no such channel.
    public static func validate(
        _ headers: BroadcastHeaders, storagePolicy: MessageStoragePolicy?, body: [UInt8], policy: BroadcastPolicy
    ) -> Result<AcceptedBroadcast, PushRejection> {
        func reject(_ reason: Reason) -> Result<AcceptedBroadcast, PushRejection> {
            .failure(DevicePushValidator.rejection(reason, apnsID: headers.requestID))
        }
        guard let storagePolicy else { return reject(.channelNotRegistered) }
        var expiration = headers.expiration
        if storagePolicy == .noStorage {
            switch expiration {
            case .at: return reject(.badExpirationDate)
            case nil where policy.noStorageRequiresExplicitExpiration: return reject(.badExpirationDate)
            case nil, .immediately: expiration = .immediately
            }
        }
        guard !body.isEmpty else { return reject(.payloadEmpty) }
        guard body.count <= PayloadLimits.broadcast else { return reject(.payloadTooLarge) }
        guard isLiveActivityUpdateOrEnd(body) else { return reject(.badRequestPayload) }
        return .success(
            AcceptedBroadcast(
                bundleID: headers.bundleID, channelID: headers.channelID, storagePolicy: storagePolicy,
                priority: headers.priority, expiration: expiration, requestID: headers.requestID, payload: body))
    }

    /// A JSON object whose `aps` is a Live Activity update or end (broadcasts cannot start one).
    static func isLiveActivityUpdateOrEnd(_ body: [UInt8]) -> Bool {
        guard case .object(let root)? = try? JSONValue(parsing: body), case .object(let aps)? = root["aps"],
            let event = aps["event"]?.stringValue, event == "update" || event == "end",
            aps["timestamp"]?.numberValue != nil
        else { return false }
        if event == "update", aps["content-state"]?.objectValue == nil { return false }
        return true
    }
}
