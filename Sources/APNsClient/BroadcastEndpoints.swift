/// Where broadcast pushes and channel management go. Apple serves them on their own hosts and
/// ports (APNS-REFERENCE.md, "Endpoints"); any other server (the emulator, a proxy, a test)
/// serves all three on one endpoint.
public struct BroadcastEndpoints: Sendable, Hashable, CustomStringConvertible {
    /// `POST /4/broadcasts/apps/<bundle-id>`.
    public var broadcast: APNsEndpoint
    /// `/1/apps/<bundle-id>/channels` and `/all-channels`.
    public var management: APNsEndpoint

    public init(broadcast: APNsEndpoint, management: APNsEndpoint) {
        self.broadcast = broadcast
        self.management = management
    }

    /// Apple's sandbox: `api-broadcast.sandbox.push.apple.com:443` (per Apple's sample) and
    /// `api-manage-broadcast.sandbox.push.apple.com:2195`.
    public static let sandbox = BroadcastEndpoints(
        broadcast: APNsEndpoint(host: "api-broadcast.sandbox.push.apple.com"),
        management: APNsEndpoint(host: "api-manage-broadcast.sandbox.push.apple.com", port: 2195))

    /// Apple's production: `api.push.apple.com:443` and `api-manage-broadcast.push.apple.com:2196`.
    public static let production = BroadcastEndpoints(
        broadcast: APNsEndpoint(host: "api.push.apple.com"),
        management: APNsEndpoint(host: "api-manage-broadcast.push.apple.com", port: 2196))

    /// Apple's endpoints for the environment of `deviceEndpoint` (`api.push.apple.com` is
    /// production, `api.sandbox.push.apple.com` sandbox, on either port); any other endpoint
    /// serves everything itself.
    public static func matching(_ deviceEndpoint: APNsEndpoint) -> BroadcastEndpoints {
        switch deviceEndpoint.host {
        case APNsEndpoint.production.host: .production
        case APNsEndpoint.sandbox.host: .sandbox
        default: BroadcastEndpoints(broadcast: deviceEndpoint, management: deviceEndpoint)
        }
    }

    public var description: String { "broadcast \(broadcast), management \(management)" }
}

/// An endpoint and the transport that reaches it.
public struct APNsRoute: Sendable {
    public let endpoint: APNsEndpoint
    public let transport: any APNsTransport

    public init(endpoint: APNsEndpoint, transport: any APNsTransport) {
        self.endpoint = endpoint
        self.transport = transport
    }
}

/// The routes of broadcasts and channel management, when they are not the device endpoint's.
/// Give each its own transport: the client shuts both down.
public struct BroadcastRoutes: Sendable {
    public let broadcast: APNsRoute
    public let management: APNsRoute

    public init(broadcast: APNsRoute, management: APNsRoute) {
        self.broadcast = broadcast
        self.management = management
    }
}
