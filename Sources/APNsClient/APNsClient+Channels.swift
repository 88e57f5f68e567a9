// Broadcast push and channel management (iOS 18) over the client's credentials, retry policy and
// transports: management requests go to `broadcastRoutes.management`, broadcasts to
// `broadcastRoutes.broadcast`, both to the device endpoint when the client has no routes.
// Answers carry `apns-request-id` (no apns-id); a rejection is `.rejected` with that id.

import APNs

/// A channel APNs created.
public struct CreatedChannel: Sendable, Equatable {
    public let channelID: ChannelID
    /// The answer's `apns-request-id`.
    public let requestID: String
}

/// A channel as APNs describes it.
public struct ChannelDescription: Sendable, Equatable {
    public let channelID: ChannelID
    public let configuration: ChannelConfiguration
    /// The answer's `apns-request-id`.
    public let requestID: String
}

extension APNsClient {
    /// Creates a channel for `bundleID` with `storagePolicy` (fixed for the channel's life).
    public nonisolated(nonsending) func createChannel(
        bundleID: String, storagePolicy: MessageStoragePolicy, requestID: APNsID? = nil
    ) async throws(APNsClientError) -> CreatedChannel {
        let body = ChannelConfiguration(storagePolicy: storagePolicy).json.encoded()
        let raw = try await management("POST", BroadcastPaths.channels, bundleID, nil, body, requestID)
        guard let text = raw.channelID, let channelID = try? ChannelID(text) else {
            throw .transport(
                TransportFailure(
                    mayHaveReachedAPNs: true, message: "APNs created a channel but sent no valid apns-channel-id"))
        }
        return CreatedChannel(channelID: channelID, requestID: raw.requestID ?? "")
    }

    /// Reads a channel's configuration.
    public nonisolated(nonsending) func readChannel(
        _ channelID: ChannelID, bundleID: String, requestID: APNsID? = nil
    ) async throws(APNsClientError) -> ChannelDescription {
        let raw = try await management("GET", BroadcastPaths.channels, bundleID, channelID, [], requestID)
        do {
            return ChannelDescription(
                channelID: channelID, configuration: try ChannelConfiguration(json: raw.body),
                requestID: raw.requestID ?? "")
        } catch {
            throw .transport(
                TransportFailure(mayHaveReachedAPNs: true, message: "APNs answered a channel read with \(error)"))
        }
    }

    /// Deletes a channel; returns the answer's `apns-request-id`.
    @discardableResult
    public nonisolated(nonsending) func deleteChannel(
        _ channelID: ChannelID, bundleID: String, requestID: APNsID? = nil
    ) async throws(APNsClientError) -> String {
        try await management("DELETE", BroadcastPaths.channels, bundleID, channelID, [], requestID).requestID ?? ""
    }

    /// Every channel of `bundleID`.
    public nonisolated(nonsending) func listChannels(
        bundleID: String, requestID: APNsID? = nil
    ) async throws(APNsClientError) -> [ChannelID] {
        let raw = try await management("GET", BroadcastPaths.allChannels, bundleID, nil, [], requestID)
        guard let ids = (try? JSONValue(parsing: raw.body))?["channels"]?.arrayValue else {
            throw .transport(
                TransportFailure(mayHaveReachedAPNs: true, message: "APNs answered a channel list without \"channels\"")
            )
        }
        return ids.compactMap { $0.stringValue.flatMap { try? ChannelID($0) } }
    }

    /// Sends a broadcast to every device subscribed to its channel; returns the `apns-request-id`.
    public nonisolated(nonsending) func broadcast(_ broadcast: Broadcast) async throws(APNsClientError) -> String {
        if let problem = Topic.bundleIDProblem(broadcast.bundleID) {
            throw .invalidNotification("bundle id \(problem)")
        }
        if broadcast.payload.count > PayloadLimits.broadcast {
            throw .invalidNotification(
                "the payload is \(broadcast.payload.count) bytes; broadcasts allow at most \(PayloadLimits.broadcast)")
        }
        if broadcast.priority == .low { throw .invalidNotification("apns-priority: broadcasts use 10 or 5, not 1") }
        var headers: [(name: String, value: String)] = [
            ("apns-push-type", PushType.liveactivity.rawValue), ("apns-channel-id", broadcast.channelID.value),
        ]
        if let priority = broadcast.priority { headers.append(("apns-priority", priority.headerValue)) }
        if let expiration = broadcast.expiration { headers.append(("apns-expiration", expiration.headerValue)) }
        let route = broadcastRoutes?.broadcast ?? APNsRoute(endpoint: endpoint, transport: transport)
        let raw = try await perform(
            "POST", BroadcastPaths.broadcast(bundleID: broadcast.bundleID), headers, broadcast.payload.bytes,
            broadcast.requestID, route)
        return raw.requestID ?? ""
    }

    private nonisolated(nonsending) func management(
        _ method: String, _ path: (String) -> String, _ bundleID: String, _ channelID: ChannelID?, _ body: [UInt8],
        _ requestID: APNsID?
    ) async throws(APNsClientError) -> RawResponse {
        if let problem = Topic.bundleIDProblem(bundleID) { throw .invalidNotification("bundle id \(problem)") }
        let headers: [(name: String, value: String)] = channelID.map { [("apns-channel-id", $0.value)] } ?? []
        let route = broadcastRoutes?.management ?? APNsRoute(endpoint: endpoint, transport: transport)
        return try await perform(method, path(bundleID), headers, body, requestID, route)
    }

    /// Sends one request with a provider token (re-signed once on ExpiredProviderToken) and the
    /// retry policy's resends (same apns-request-id); 2xx is success, anything else a rejection.
    private nonisolated(nonsending) func perform(
        _ method: String, _ path: String, _ headers: [(name: String, value: String)], _ body: [UInt8],
        _ requestID: APNsID?, _ route: APNsRoute
    ) async throws(APNsClientError) -> RawResponse {
        let id = (requestID ?? APNsID.random()).value
        var retries = RetryState()
        while true {
            let token = try credentials.currentToken().get()
            let request = APNsRequest(
                method: method, path: path, authority: route.endpoint.authority, authorization: token?.authorization,
                headers: headers + [("apns-request-id", id)], body: body, apnsID: id)
            let result = await route.transport.perform(request, timeout: requestTimeout).flatMap {
                raw -> Result<RawResponse, APNsClientError> in
                if (200..<300).contains(raw.status) { return .success(raw) }
                return ResponseDecoder.decode(
                    status: raw.status, apnsID: raw.requestID ?? id, uniqueID: nil, body: raw.body
                )
                .map { _ in raw }
            }
            guard case .failure(let error) = result else { return try result.get() }
            switch retries.step(after: error, policy: retryPolicy, resign: { credentials.resigns(after: token) }) {
            case .resendNow:
                continue
            case .resendAfter(let delay):
                try? await Task.sleep(for: delay)
                continue
            case .stop:
                throw error
            }
        }
    }
}
