/// An HTTP/2 response as the transport delivers it: the status, the APNs headers a client reads,
/// and the body (empty on a device push's success).
public struct RawResponse: Sendable, Equatable {
    public var status: Int
    public var apnsID: String?
    public var uniqueID: String?
    public var body: [UInt8]
    /// `apns-request-id`, the id of broadcast and channel management answers (which carry no apns-id).
    public var requestID: String?
    /// `apns-channel-id`, in the answer to a channel create.
    public var channelID: String?

    public init(
        status: Int, apnsID: String? = nil, uniqueID: String? = nil, body: [UInt8] = [], requestID: String? = nil,
        channelID: String? = nil
    ) {
        self.status = status
        self.apnsID = apnsID
        self.uniqueID = uniqueID
        self.body = body
        self.requestID = requestID
        self.channelID = channelID
    }
}

/// What carries requests to APNs: the HTTP/2 connection pool in production, an in-memory fake in
/// tests. Implementations resolve every call exactly once: a response, or a transport failure
/// that says whether the request may have reached the server.
public protocol APNsTransport: Sendable {
    /// Runs on the caller's executor (`nonisolated(nonsending)`): a caller on an event loop stays there.
    nonisolated(nonsending) func perform(_ request: APNsRequest, timeout: Duration) async -> Result<RawResponse, APNsClientError>
    /// Open connections, for metrics.
    var connectionCount: Int { get }
    /// Fails what is pending with `.shutDown` and closes every connection.
    func shutdown() async
    /// An executor to run sending tasks on, so their requests need no thread hop (the transport's
    /// event loops, taken in turn); nil lets tasks run anywhere.
    func preferredTaskExecutor() -> (any TaskExecutor)?
}

extension APNsTransport {
    public func preferredTaskExecutor() -> (any TaskExecutor)? { nil }
}
