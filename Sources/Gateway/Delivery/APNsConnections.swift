import APNsClient

/// The APNs clients the gateway sends through: one per app and environment it has credentials for
/// (each client keeps its own connection pool and provider-token cache). The delivery workers send
/// notifications through them; the channel routes manage broadcast channels through them.
///
/// Lifecycle: the gateway owns the clients once they are handed over; ``shutdown()`` closes them all.
/// Thread-safety: immutable; `Sendable`.
public struct APNsConnections: Sendable {
    /// Which client: an app and one of its environments.
    public struct Key: Sendable, Hashable, CustomStringConvertible {
        public var bundleID: String
        public var environment: Environment

        public init(bundleID: String, environment: Environment) {
            self.bundleID = bundleID
            self.environment = environment
        }

        public var description: String { "\(bundleID) (\(environment))" }
    }

    private let clients: [Key: APNsClient]

    public init(_ clients: [Key: APNsClient]) {
        self.clients = clients
    }

    /// The client for the app in this environment; nil when the gateway has no credentials for it.
    public func client(bundleID: String, environment: Environment) -> APNsClient? {
        clients[Key(bundleID: bundleID, environment: environment)]
    }

    /// Every configured key.
    public var keys: [Key] { Array(clients.keys) }

    /// Shuts every client down (their connections close; sends in flight fail).
    public func shutdown() async {
        for client in clients.values { await client.shutdown() }
    }
}

extension APNsConnections {
    /// Open HTTP/2 connections over every client (read from each client's metrics).
    public var openConnections: Int {
        keys.reduce(0) { $0 + (client(bundleID: $1.bundleID, environment: $1.environment)?.metrics.connections ?? 0) }
    }
}
