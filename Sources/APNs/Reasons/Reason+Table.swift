// The one table of APNs reasons (Apple: "Handling notification responses from APNs", "Sending
// channel management requests", "Sending broadcast push notification requests"). The client's
// decoding, the emulator's answers, the retry policy and token pruning all read this table.

extension Reason {
    /// Every documented reason, keyed by reason.
    public static let table: [Reason: ReasonInfo] = Dictionary(
        uniqueKeysWithValues: allDocumented.map { ($0.reason, $0) })

    /// Every documented reason, in status order.
    public static let allDocumented: [ReasonInfo] = [
        row(.badCollapseId, 400, .device, .never, "The collapse identifier exceeds the maximum allowed size (64 bytes)."),
        row(.badDeviceToken, 400, .device, .never, "The device token is invalid, or is for the other environment (sandbox/production).", prune: true),
        row(.badExpirationDate, 400, .all, .never, "The apns-expiration value is invalid."),
        row(.badMessageId, 400, .all, .never, "The apns-id (or apns-request-id) value is invalid."),
        row(.badPriority, 400, .all, .never, "The apns-priority value is invalid for this push type."),
        row(.badTopic, 400, .device, .never, "The apns-topic value is invalid."),
        row(.deviceTokenNotForTopic, 400, .device, .never, "The device token does not match the specified topic.", prune: true),
        row(.duplicateHeaders, 400, .device, .never, "One or more headers are repeated."),
        row(.idleTimeout, 400, .device, .afterFix, "The connection was idle too long; open a new one."),
        row(.invalidPushType, 400, .all, .never, "The apns-push-type value is invalid."),
        row(.missingDeviceToken, 400, .device, .never, "The device token is not in the request path."),
        row(.missingTopic, 400, .device, .never, "The apns-topic header is required with token authentication or a multi-topic certificate."),
        row(.payloadEmpty, 400, .all, .never, "The message payload is empty."),
        row(.topicDisallowed, 400, .all, .never, "Pushing to this topic is not allowed."),
        row(.featureNotEnabled, 400, [.broadcast, .channels], .never, "Broadcast push is not enabled for this app."),
        row(.missingChannelId, 400, [.broadcast, .channels], .never, "The apns-channel-id header is missing."),
        row(.badChannelId, 400, [.broadcast, .channels], .never, "The apns-channel-id is malformed."),
        row(.channelNotRegistered, 400, [.broadcast, .channels], .never, "The channel does not exist."),
        row(.badRequestParams, 400, [.broadcast, .channels], .never, "A request parameter is invalid."),
        row(.badRequestPayload, 400, [.broadcast, .channels], .never, "The request body is invalid."),
        row(.missingPushType, 400, [.broadcast, .channels], .never, "The push type is missing."),
        row(.cannotCreateChannelConfig, 400, .channels, .never, "The app has reached the channel limit (10,000 per environment)."),
        row(.badCertificate, 403, .all, .afterFix, "The certificate is invalid."),
        row(.badCertificateEnvironment, 403, .all, .afterFix, "The client certificate is for the wrong environment."),
        row(.expiredProviderToken, 403, .all, .afterFix, "The provider token is stale (issued more than an hour ago); sign a new one."),
        row(.forbidden, 403, .device, .never, "The specified action is not allowed."),
        row(.invalidProviderToken, 403, .all, .afterFix, "The provider token is not valid, or its signature could not be verified."),
        row(.missingProviderToken, 403, .all, .afterFix, "No provider certificate was used and the authorization header is missing."),
        row(.unrelatedKeyIdInToken, 403, .device, .afterFix, "The key id in the provider token is unrelated to this connection."),
        row(.badEnvironmentKeyIdInToken, 403, .device, .afterFix, "The key id in the provider token is for the other environment."),
        row(.topicMismatch, 403, [.broadcast, .channels], .never, "The topic does not match the credentials."),
        row(.badPath, 404, .all, .never, "The request path is invalid."),
        row(.methodNotAllowed, 405, .all, .never, "The request method is not allowed here."),
        row(.expiredToken, 410, .device, .never, "The device token has expired.", prune: true),
        row(.unregistered, 410, .device, .never, "The device token is inactive for the specified topic.", prune: true),
        row(.payloadTooLarge, 413, .all, .never, "The message payload is too large."),
        row(.tooManyProviderTokenUpdates, 429, .all, .afterFix, "The provider token is being updated too often (more than once per 20 minutes)."),
        row(.tooManyRequests, 429, .all, .withBackoff, "Too many requests were made consecutively to the same device token or channel."),
        row(.internalServerError, 500, .all, .withBackoff, "An internal server error occurred."),
        row(.serviceUnavailable, 503, .all, .withBackoff, "The service is unavailable."),
        row(.shutdown, 503, .all, .withBackoff, "The APNs server is shutting down; open a new connection."),
    ]

    private static func row(
        _ reason: Reason, _ status: Int, _ scope: ReasonInfo.Scope, _ retry: ReasonInfo.Retry, _ summary: String,
        prune: Bool = false
    ) -> ReasonInfo {
        ReasonInfo(reason: reason, status: status, scope: scope, retry: retry, prunesToken: prune, summary: summary)
    }
}
