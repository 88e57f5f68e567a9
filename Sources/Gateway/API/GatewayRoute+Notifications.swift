extension GatewayRoute {
    /// The notification routes (GatewayHandler+Notifications.swift).
    static let notificationRoutes: [GatewayRoute] = [
        GatewayRoute(
            method: "POST", pattern: "/v1/apps/{bundle-id}/notifications", operation: .createNotification,
            scope: .send,
            summary:
                "Send a notification to tokens, users, tags, a Live Activity, push-to-start tokens or a channel; "
                + "an `idempotency-key` header makes a repeat return the first",
            responses: [
                202: "`{\"id\",\"recipients\"}`: stored, sending starts",
                422: "`{\"error\":{...},\"findings\":[...]}`: the linter found errors; nothing stored",
            ],
            requestSchema: NotificationBody.schema),
        GatewayRoute(
            method: "GET", pattern: "/v1/notifications/{id}", operation: .getNotification, scope: .send,
            summary: "A notification's state and counts", responses: [200: "the notification"], requestSchema: nil),
        GatewayRoute(
            method: "DELETE", pattern: "/v1/notifications/{id}", operation: .cancelNotification, scope: .send,
            summary: "Cancel what is not yet sent", responses: [200: "the notification after the cancel"],
            requestSchema: nil),
        GatewayRoute(
            method: "GET", pattern: "/v1/notifications/{id}/deliveries", operation: .notificationDeliveries,
            scope: .send,
            summary: "A page of a notification's deliveries (`limit` 1-1000, default 100; `cursor`: the last page's "
                + "`next-cursor`)",
            responses: [200: "`{\"deliveries\":[...],\"next-cursor\"}`"], requestSchema: nil,
            queryParameters: DeliveriesQuery.parameters),
        GatewayRoute(
            method: "POST", pattern: "/v1/lint", operation: .lint, scope: .send,
            summary: "Lint a payload and its headers with Herald's linter",
            responses: [200: "`{\"valid\",\"findings\":[...]}`"], requestSchema: LintBody.schema),
    ]
}
