extension GatewayRoute {
    /// Broadcast channels, mirrored to APNs's channel management.
    static let channelRoutes: [GatewayRoute] = [
        GatewayRoute(
            method: "POST", pattern: "/v1/apps/{bundle-id}/channels", operation: .createChannel, scope: .admin,
            summary: "Create a broadcast channel on APNs", responses: [201: "the channel"] + apnsResponses,
            requestSchema: ChannelCreationBody.schema),
        GatewayRoute(
            method: "GET", pattern: "/v1/apps/{bundle-id}/channels", operation: .listChannels, scope: .send,
            summary: "The app's channels on APNs (`?environment=`; else every environment of the app)",
            responses: [200: "`{\"channels\":[...]}`"] + apnsResponses, requestSchema: nil,
            queryParameters: environmentQuery),
        GatewayRoute(
            method: "GET", pattern: "/v1/apps/{bundle-id}/channels/{channel-id}", operation: .readChannel,
            scope: .send, summary: "A channel's storage policy, read from APNs (`?environment=`)",
            responses: [200: "the channel", 404: "`unknown-channel`"] + apnsResponses, requestSchema: nil,
            queryParameters: environmentQuery),
        GatewayRoute(
            method: "DELETE", pattern: "/v1/apps/{bundle-id}/channels/{channel-id}", operation: .deleteChannel,
            scope: .admin, summary: "Delete a channel on APNs (`?environment=`)",
            responses: [204: "deleted", 404: "`unknown-channel`"] + apnsResponses, requestSchema: nil,
            queryParameters: environmentQuery),
    ]

    /// `?environment=sandbox|production`: the APNs environment to ask (else the app's default; for
    /// the list, every environment of the app).
    static let environmentQuery = ["environment"]

    /// What every channel route may answer when APNs is involved.
    private static let apnsResponses: [Int: String] = [
        409: "`no-apns-client`: no APNs credentials for the app in that environment",
        502: "`apns-error`: APNs refused the request (`error.reason`)",
        503: "`apns-unavailable`: APNs did not answer",
    ]
}

extension Dictionary where Key == Int, Value == String {
    fileprivate static func + (left: Self, right: Self) -> Self { left.merging(right) { first, _ in first } }
}
