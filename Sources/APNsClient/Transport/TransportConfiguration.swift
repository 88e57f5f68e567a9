/// How the HTTP/2 transport reaches APNs: endpoint, TLS, proxy and pool size.
public struct TransportConfiguration: Sendable, Equatable {
    /// A client certificate for certificate auth: a .p12, or a PEM certificate with its PEM key.
    public enum ClientIdentity: Sendable, Equatable {
        case pkcs12(path: String, password: String?)
        case pem(certificatePath: String, keyPath: String, password: String?)
    }

    public var endpoint: APNsEndpoint
    /// A PEM file of CAs to trust instead of the system's (the emulator's CA, a test CA).
    public var caFile: String?
    public var clientIdentity: ClientIdentity?
    /// An HTTP CONNECT proxy, `http://host:port`.
    public var proxy: String?
    /// Connections opened at most.
    public var maximumConnections: Int
    /// Requests waiting for a free stream at most; more wait in `send` (back-pressure).
    public var maximumQueuedRequests: Int
    public var connectTimeout: Duration
    /// PING a connection idle this long; nil never pings.
    public var idlePingInterval: Duration?
    /// Close a connection whose PING is not answered within this.
    public var pingTimeout: Duration
    /// Event loops (threads) for the connections when the transport starts its own; nil: one per
    /// processor, at most one per connection. One loop keeps a whole bulk send on one thread.
    public var loopCount: Int? = nil

    public init(
        endpoint: APNsEndpoint, caFile: String? = nil, clientIdentity: ClientIdentity? = nil, proxy: String? = nil,
        maximumConnections: Int = 1, maximumQueuedRequests: Int = 10_000, connectTimeout: Duration = .seconds(10),
        idlePingInterval: Duration? = .seconds(60), pingTimeout: Duration = .seconds(10)
    ) {
        self.endpoint = endpoint
        self.caFile = caFile
        self.clientIdentity = clientIdentity
        self.proxy = proxy
        self.maximumConnections = maximumConnections
        self.maximumQueuedRequests = maximumQueuedRequests
        self.connectTimeout = connectTimeout
        self.idlePingInterval = idlePingInterval
        self.pingTimeout = pingTimeout
    }
}
