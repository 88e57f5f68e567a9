// The gateway's route table: one list that builds both the `HTTPRouter` the handler matches with
// and `/openapi.json`, so no route can be served undocumented (GatewayOpenAPITests checks it).
//
//   GET    /healthz                                      public
//   GET    /openapi.json                                 public
//   PUT    /v1/apps/{bundle-id}/devices/{token}          register
//   GET    /v1/apps/{bundle-id}/devices/{token}          send
//   DELETE /v1/apps/{bundle-id}/devices/{token}          register
//   GET    /v1/apps/{bundle-id}/users/{user}/devices     send
//   Live Activities and channels: GatewayRoute+LiveActivities.swift, GatewayRoute+Channels.swift
//   POST   /v1/apps/{bundle-id}/notifications            send     (GatewayRoute+Notifications.swift)
//   GET    /v1/notifications/{id}                        send
//   DELETE /v1/notifications/{id}                        send
//   GET    /v1/notifications/{id}/deliveries             send
//   POST   /v1/lint                                      send
//   GET    /metrics                                      admin (a key for every app)
//   GET    /v1/metrics/history                           admin (the last hour, one sample per 10 s)
//   GET    /v1/apps/{bundle-id}/live-activities          send     (the app's activities, by id)
//   GET    /v1/apps/{bundle-id}/push-to-start            send     (the app's push-to-start tokens)
//   GET    /, /assets/{name}, /favicon.ico               public: the web console (GatewayRoute+Console.swift)
//   GET    /v1/apps                                      send
//   GET    /v1/apps/{bundle-id}/notifications            send     (newest first)
//   POST   /v1/preview                                   send     (a payload as a banner shows it)
//   GET    /v1/apps/{bundle-id}/devices/{token}/deliveries send   (a device's history, newest first)
import APNs
import HTTP2

/// One route: what it does, the least scope of key it needs, and how OpenAPI describes it.
public struct GatewayRoute: Sendable {
    /// What the handler does for the route.
    public enum Operation: String, Sendable, CaseIterable {
        case health, openAPI, putDevice, getDevice, deleteDevice, userDevices
        case putPushToStart, deletePushToStart, userPushToStart, putActivity, getActivity, deleteActivity
        case createChannel, listChannels, readChannel, deleteChannel
        case createNotification, getNotification, notificationDeliveries, cancelNotification, lint
        case metrics
        case console, listApps, listNotifications, preview, deviceDeliveries, metricsHistory
        case listActivities, listPushToStart
    }

    public let method: String
    /// An `HTTPRoutePattern` (`{name}` parameters, as OpenAPI writes path templates too).
    public let pattern: String
    public let operation: Operation
    /// nil: no key needed.
    public let scope: APIKey.Scope?
    public let summary: String
    /// The answers it gives besides the errors every route may give, by status.
    public let responses: [Int: String]
    /// The JSON schema of its body, if it takes one.
    let requestSchema: JSONValue?
    /// The query parameters it takes, all optional (for OpenAPI; the route's handler refuses others).
    var queryParameters: [String] = []

    /// Every route the gateway serves.
    public static let all: [GatewayRoute] =
        coreRoutes + liveActivityRoutes + channelRoutes + notificationRoutes + consoleRoutes

    /// Health, OpenAPI and devices.
    static let coreRoutes: [GatewayRoute] = [
        GatewayRoute(
            method: "GET", pattern: "/healthz", operation: .health, scope: nil,
            summary: "Whether the gateway is up", responses: [200: "`{\"status\":\"ok\"}`"], requestSchema: nil),
        GatewayRoute(
            method: "GET", pattern: "/openapi.json", operation: .openAPI, scope: nil,
            summary: "This API as OpenAPI 3.1", responses: [200: "the OpenAPI document"], requestSchema: nil),
        GatewayRoute(
            method: "PUT", pattern: "/v1/apps/{bundle-id}/devices/{token}", operation: .putDevice, scope: .register,
            summary: "Register a device token (on every launch)", responses: [200: "the stored device"],
            requestSchema: DeviceRegistrationBody.schema),
        GatewayRoute(
            method: "GET", pattern: "/v1/apps/{bundle-id}/devices/{token}", operation: .getDevice, scope: .send,
            summary: "A stored device", responses: [200: "the stored device"], requestSchema: nil),
        GatewayRoute(
            method: "DELETE", pattern: "/v1/apps/{bundle-id}/devices/{token}", operation: .deleteDevice,
            scope: .register, summary: "Forget a device", responses: [204: "forgotten"], requestSchema: nil),
        GatewayRoute(
            method: "GET", pattern: "/v1/apps/{bundle-id}/users/{user}/devices", operation: .userDevices, scope: .send,
            summary: "A user's devices, whatever their status", responses: [200: "`{\"devices\":[...]}`"],
            requestSchema: nil),
        GatewayRoute(
            method: "GET", pattern: "/metrics", operation: .metrics, scope: .admin,
            summary: "Delivery metrics in Prometheus's text format (an admin key for every app)",
            responses: [200: "`text/plain; version=0.0.4`: sends, latency, queue depth, pruned tokens, connections"],
            requestSchema: nil),
    ]

    /// The table the handler matches requests with.
    static func router() throws(HTTPRouteError) -> HTTPRouter<GatewayRoute> {
        var router = HTTPRouter<GatewayRoute>()
        for route in all { try router.add(route.method, route.pattern, route) }
        return router
    }
}

extension APIKey.Scope {
    /// Whether a key of this scope may use a route that needs `required`: admin > send > register.
    func covers(_ required: APIKey.Scope) -> Bool { rank >= required.rank }

    private var rank: Int {
        switch self {
        case .register: 0
        case .send: 1
        case .admin: 2
        }
    }
}
