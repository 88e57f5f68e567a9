// The APNs emulator's answer to channel management requests (`/1/apps/<bundle-id>/channels` and
// `/all-channels`; APNS-REFERENCE.md, "Broadcast push (iOS 18)"), as pure functions.
//
// Apple documents the reasons but not their order; this one follows the device-push validator's
// (request id, method/path, topic, headers, then the body after the provider token):
//
//   headers:  BadMessageId (apns-request-id), BadPath (shape), MethodNotAllowed, TopicDisallowed /
//             BadPath / TopicMismatch / FeatureNotEnabled (bundle id), MissingChannelId,
//             BadChannelId (read, delete)
//   (the emulator checks the provider token here)
//   body:     create only: PayloadEmpty, BadRequestPayload (not a JSON object), MissingPushType,
//             InvalidPushType (not "LiveActivity"), BadRequestParams (storage policy not 0 or 1)
//   (the emulator's store answers ChannelNotRegistered and CannotCreateChannelConfig)

/// What a channel management request asks for.
public enum ChannelOperation: Sendable, Hashable {
    /// `POST /channels`; the body is checked by `ChannelRequestValidator.validateCreateBody`.
    case create
    /// `GET /channels` with `apns-channel-id`.
    case read(ChannelID)
    /// `DELETE /channels` with `apns-channel-id`.
    case delete(ChannelID)
    /// `GET /all-channels`.
    case list
}

/// A channel management request whose headers passed every check.
public struct ChannelRequest: Sendable, Equatable {
    public let bundleID: String
    public let operation: ChannelOperation
    /// The request's `apns-request-id` (lowercase), or a generated one; every answer carries it.
    public let requestID: String
    /// The `authorization` header as sent, for the provider-token check; nil when absent.
    public let authorization: String?
}

/// Validates channel management requests as APNs does. See the file comment for the order.
public enum ChannelRequestValidator {
    /// Header phase: everything that needs neither the provider token nor the body.
    public static func validateHeaders(
        _ request: IncomingPushRequest, policy: BroadcastPolicy
    ) -> Result<ChannelRequest, PushRejection> {
        let fields = HeaderFields(request.headers)
        let (requestID, malformed) = fields.requestID()
        func reject(_ reason: Reason) -> Result<ChannelRequest, PushRejection> {
            .failure(DevicePushValidator.rejection(reason, apnsID: requestID))
        }
        if malformed { return reject(.badMessageId) }

        guard request.path.hasPrefix(BroadcastPaths.managementPrefix) else { return reject(.badPath) }
        let rest = request.path.dropFirst(BroadcastPaths.managementPrefix.count)
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1] == "channels" || parts[1] == "all-channels" else {
            return reject(.badPath)
        }
        let bundleID = String(parts[0])
        let listing = parts[1] == "all-channels"
        let allowedMethods = listing ? ["GET"] : ["POST", "GET", "DELETE"]
        guard allowedMethods.contains(request.method) else { return reject(.methodNotAllowed) }
        if let reason = policy.problem(withBundleID: bundleID) { return reject(reason) }

        func channelID() -> Result<ChannelID, PushRejection> {
            guard let value = fields["apns-channel-id"], !value.isEmpty else {
                return .failure(DevicePushValidator.rejection(.missingChannelId, apnsID: requestID))
            }
            do {
                return .success(try ChannelID(value))
            } catch {
                return .failure(DevicePushValidator.rejection(.badChannelId, apnsID: requestID))
            }
        }
        let operation: Result<ChannelOperation, PushRejection> =
            switch (listing, request.method) {
            case (true, _): .success(.list)
            case (false, "POST"): .success(.create)
            case (false, "GET"): channelID().map(ChannelOperation.read)
            default: channelID().map(ChannelOperation.delete)
            }
        return operation.map {
            ChannelRequest(
                bundleID: bundleID, operation: $0, requestID: requestID, authorization: fields["authorization"])
        }
    }

    /// Body phase of a create, after the provider token: the channel's configuration, or the
    /// reason APNs gives for the body.
    public static func validateCreateBody(
        _ body: [UInt8], requestID: String
    ) -> Result<ChannelConfiguration, PushRejection> {
        do {
            return .success(try ChannelConfiguration(json: body))
        } catch {
            return .failure(DevicePushValidator.rejection(error.reason, apnsID: requestID))
        }
    }
}
