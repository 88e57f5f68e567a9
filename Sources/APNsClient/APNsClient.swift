import APNs
import HTTP2
import Synchronization

/// Sends notifications to APNs.
///
/// Thread-safe: share one client across the whole process and call `send` from any task. It keeps
/// its connections open between sends (APNs treats reconnect storms as abuse); call `shutdown()`
/// once when done. Every `send` ends exactly once: with a response, or an `APNsClientError`.
public final class APNsClient: Sendable {
    /// How requests are authenticated.
    public enum Credentials: Sendable {
        /// Token auth: a provider token in every request's authorization header.
        case token(ProviderTokenCache)
        /// Certificate auth: the TLS client certificate is the credential; no authorization header.
        case certificate
    }

    /// A token APNs says is dead, for the provider's store to prune.
    public struct PrunableToken: Sendable, Equatable {
        public let token: DeviceToken
        public let topic: Topic?
        public let reason: Reason
        /// For 410: when APNs last confirmed the token invalid (ms since 1970). Prune only if the
        /// token was not registered again after this.
        public let invalidSinceMilliseconds: Int?
    }

    public let endpoint: APNsEndpoint
    public let credentials: Credentials
    public let retryPolicy: RetryPolicy
    public let requestTimeout: Duration
    let transport: any APNsTransport
    /// Where broadcasts and channel management go; nil: the device endpoint and transport.
    let broadcastRoutes: BroadcastRoutes?
    /// The transport when it is the HTTP/2 pool: called directly, so `send` and `perform` compile
    /// into one async function with one suspension (no executor hops between them).
    let http2: HTTP2Transport?
    let onPrunableToken: (@Sendable (PrunableToken) -> Void)?
    let recorder = MetricsRecorder()
    /// `endpoint.authority`, made once (the property builds a string).
    let authority: String

    /// A client over any transport (tests pass a fake; `HTTP2Transport` is the real one, and
    /// `init(endpoint:authKeyPath:keyID:teamID:connections:)` builds it for the common case).
    /// `broadcastRoutes` carry broadcasts and channel management to Apple's own hosts for them;
    /// nil sends them to `endpoint` over `transport` (the emulator serves all three). The client
    /// shuts their transports down with its own.
    public init(
        endpoint: APNsEndpoint, credentials: Credentials, transport: any APNsTransport,
        retryPolicy: RetryPolicy = RetryPolicy(), requestTimeout: Duration = .seconds(30),
        onPrunableToken: (@Sendable (PrunableToken) -> Void)? = nil, broadcastRoutes: BroadcastRoutes? = nil
    ) {
        self.broadcastRoutes = broadcastRoutes
        self.endpoint = endpoint
        self.authority = endpoint.authority
        self.credentials = credentials
        self.transport = transport
        self.http2 = transport as? HTTP2Transport
        self.retryPolicy = retryPolicy
        self.requestTimeout = requestTimeout
        self.onPrunableToken = onPrunableToken
    }

    /// Sends one notification; resends what the retry policy allows (same apns-id), re-signs the
    /// provider token once on ExpiredProviderToken.
    public nonisolated(nonsending) func send(_ notification: APNsNotification) async throws(APNsClientError)
        -> APNsResponse
    {
        try await outcome(notification).get()
    }

    /// `send`, with the outcome as a value (handy in task groups and result streams).
    public nonisolated(nonsending) func result(for notification: APNsNotification) async -> Result<
        APNsResponse, APNsClientError
    > {
        await outcome(notification)
    }

    /// The body of `send` and `result(for:)`, inlined into both so that each compiles to one async
    /// function down to the transport's continuation (fewer executor hops per notification).
    @inline(__always)
    private nonisolated(nonsending) func outcome(_ notification: Notification) async -> Result<
        APNsResponse, APNsClientError
    > {
        let started = EventLoop.now()  // monotonic ns: no Duration arithmetic (Int128) per send
        let shard = recorder.shard  // looked up once per send, not per event
        shard.started.add(1, ordering: .relaxed)
        let result = await attempt(notification, shard: shard)
        recorder.finished(result, microseconds: (EventLoop.now() &- started) / 1000, in: shard)
        return result
    }

    @inline(__always)
    private nonisolated(nonsending) func attempt(
        _ original: Notification, shard: MetricsRecorder.Shard
    ) async -> Result<APNsResponse, APNsClientError> {
        if original.payload.count > original.payloadLimit {
            return .failure(
                .invalidNotification(
                    "the payload is \(original.payload.count) bytes; \(original.pushType) pushes allow at most \(original.payloadLimit)"
                ))
        }
        var retries = RetryState()
        // Built once (its apns-id, generated here if the notification has none, stays the same on
        // every resend); built again only when the provider token changed.
        var built: APNsRequest?
        while true {
            let token: ProviderToken?
            switch credentials.currentToken() {
            case .success(let current): token = current
            case .failure(let error): return .failure(error)
            }
            let request = Self.request(
                reusing: &built, for: original, authority: authority, authorization: token?.authorization)
            shard.sent.add(1, ordering: .relaxed)
            let result: Result<APNsResponse, APNsClientError>
            if let http2 {
                result = await http2.send(request, timeout: requestTimeout)
            } else {
                result = ResponseDecoder.decode(
                    await transport.perform(request, timeout: requestTimeout), sentID: request.apnsID)
            }
            guard case .failure(let error) = result else { return result }
            switch retries.step(after: error, policy: retryPolicy, resign: { credentials.resigns(after: token) }) {
            case .resendNow:
                recorder.retried()
                continue
            case .resendAfter(let delay):
                recorder.retried()
                await Self.pause(for: delay)
                continue
            case .stop:
                break
            }
            if case .rejected(let rejection) = error, rejection.reason.prunesToken {
                onPrunableToken?(
                    PrunableToken(
                        token: original.token, topic: original.topic, reason: rejection.reason,
                        invalidSinceMilliseconds: rejection.timestampMilliseconds))
            }
            return result
        }
    }

    /// Waits `delay` before a resend. Kept out of `attempt` on purpose: `Task.sleep(for:)` there
    /// made every send allocate room for a `ContinuousClock` value in its async frame, resend or
    /// not.
    @inline(never)
    private static nonisolated(nonsending) func pause(for delay: Duration) async {
        try? await Task.sleep(for: delay)
    }

    /// The request for `notification`: `previous` when there is one with the same authorization
    /// (a resend), else a new one, with `previous`'s apns-id if it had one. Kept in `previous`.
    @inline(__always)
    static func request(
        reusing previous: inout APNsRequest?, for notification: Notification, authority: String, authorization: String?
    ) -> APNsRequest {
        if let request = previous {
            if request.authorization == authorization { return request }
            let resent = APNsRequest(resending: request, authorization: authorization)
            previous = resent
            return resent
        }
        let request = APNsRequest(notification: notification, authority: authority, authorization: authorization)
        previous = request
        return request
    }

    /// Where sending tasks run best (the transport's event loops), for `sendAll` and callers with
    /// their own task groups: `group.addTask(executorPreference: client.preferredTaskExecutor()) { ... }`.
    public func preferredTaskExecutor() -> (any TaskExecutor)? {
        transport.preferredTaskExecutor()
    }

    /// What the client has done so far.
    public var metrics: MetricsSnapshot {
        var snapshot = recorder.snapshot
        snapshot.connections = transport.connectionCount
        return snapshot
    }

    /// Fails pending sends with `.shutDown` and closes the connections.
    public func shutdown() async {
        await transport.shutdown()
        if let broadcastRoutes {
            await broadcastRoutes.broadcast.transport.shutdown()
            await broadcastRoutes.management.transport.shutdown()
        }
    }
}
