extension GatewayRoute {
    /// The web console (Sources/Console: the page, its assets, the favicon; public, the page signs in
    /// with an API key), the lists it reads (the apps a key serves, an app's notifications) and the
    /// preview of a payload on a lock screen.
    /// How a listing route pages, the end of its summary.
    private static let pages = "a page at a time (`limit` 1-1000, default 100; `cursor`: the last page's `next-cursor`)"

    static let consoleRoutes: [GatewayRoute] = [
        GatewayRoute(
            method: "GET", pattern: "/", operation: .console, scope: nil,
            summary: "The web console (sign in with an API key)", responses: [200: "`text/html`"], requestSchema: nil),
        GatewayRoute(
            method: "GET", pattern: "/assets/{name}", operation: .console, scope: nil,
            summary: "The web console's scripts, styles and reason table",
            responses: [200: "the file", 304: "unchanged (`if-none-match`)"], requestSchema: nil),
        GatewayRoute(
            method: "GET", pattern: "/favicon.ico", operation: .console, scope: nil,
            summary: "The console's icon (SVG)", responses: [200: "`image/svg+xml`"], requestSchema: nil),
        GatewayRoute(
            method: "GET", pattern: "/v1/apps", operation: .listApps, scope: .send,
            summary: "The apps this key serves, with their environments",
            responses: [200: "`{\"apps\":[{\"bundle-id\",\"environments\"}]}`"], requestSchema: nil),
        GatewayRoute(
            method: "GET", pattern: "/v1/apps/{bundle-id}/notifications", operation: .listNotifications, scope: .send,
            summary: "The app's notifications, newest first, " + pages,
            responses: [200: "`{\"notifications\":[...],\"next-cursor\"}`"], requestSchema: nil,
            queryParameters: DeliveriesQuery.parameters),
        GatewayRoute(
            method: "POST", pattern: "/v1/preview", operation: .preview, scope: .send,
            summary: "What a lock screen banner shows of a payload (the device model's rule: one line of title and "
                + "subtitle, four of body, 40 characters a line)",
            responses: [200: "`{\"title\",\"subtitle\",\"body\",\"truncated\",\"thread-id\"}`"],
            requestSchema: GatewayPreview.schema),
        GatewayRoute(
            method: "GET", pattern: "/v1/apps/{bundle-id}/devices/{token}/deliveries", operation: .deviceDeliveries,
            scope: .send,
            summary: "The deliveries to a device token across the app's notifications, newest first, " + pages,
            responses: [200: "`{\"deliveries\":[...],\"next-cursor\"}`"], requestSchema: nil,
            queryParameters: DeliveriesQuery.parameters),
        GatewayRoute(
            method: "GET", pattern: "/v1/metrics/history", operation: .metricsHistory, scope: .admin,
            summary: "The last hour of metrics, one sample per interval, oldest first (an admin key for every app)",
            responses: [200: "`{\"interval-seconds\",\"capacity\",\"samples\":[...]}`"], requestSchema: nil),
        GatewayRoute(
            method: "GET", pattern: "/v1/apps/{bundle-id}/live-activities", operation: .listActivities, scope: .send,
            summary: "The app's Live Activities (update tokens), whatever their status, by activity id, " + pages,
            responses: [200: "`{\"activities\":[...],\"next-cursor\"}`"], requestSchema: nil,
            queryParameters: DeliveriesQuery.parameters),
        GatewayRoute(
            method: "GET", pattern: "/v1/apps/{bundle-id}/push-to-start", operation: .listPushToStart, scope: .send,
            summary: "The app's push-to-start tokens, whatever their status, in registration order, " + pages,
            responses: [200: "`{\"push-to-start-tokens\":[...],\"next-cursor\"}`"], requestSchema: nil,
            queryParameters: DeliveriesQuery.parameters),
    ]
}
