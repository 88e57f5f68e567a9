extension GatewayRoute {
    /// Push-to-start tokens and the update tokens of running activities.
    static let liveActivityRoutes: [GatewayRoute] = [
        GatewayRoute(
            method: "PUT", pattern: "/v1/apps/{bundle-id}/live-activities/push-to-start/{token}",
            operation: .putPushToStart, scope: .register,
            summary: "Register a push-to-start token for an attributes type", responses: [200: "the stored token"],
            requestSchema: PushToStartBody.schema),
        GatewayRoute(
            method: "DELETE", pattern: "/v1/apps/{bundle-id}/live-activities/push-to-start/{token}",
            operation: .deletePushToStart, scope: .register, summary: "Forget a push-to-start token",
            responses: [204: "forgotten", 404: "`unknown-push-to-start-token`"], requestSchema: nil),
        GatewayRoute(
            method: "GET", pattern: "/v1/apps/{bundle-id}/users/{user}/push-to-start", operation: .userPushToStart,
            scope: .send, summary: "A user's push-to-start tokens, whatever their status",
            responses: [200: "`{\"push-to-start-tokens\":[...]}`"], requestSchema: nil),
        GatewayRoute(
            method: "PUT", pattern: "/v1/apps/{bundle-id}/live-activities/{activity-id}", operation: .putActivity,
            scope: .register, summary: "Register (or replace) a Live Activity's update token",
            responses: [200: "the stored activity"], requestSchema: ActivityTokenBody.schema),
        GatewayRoute(
            method: "GET", pattern: "/v1/apps/{bundle-id}/live-activities/{activity-id}", operation: .getActivity,
            scope: .send, summary: "A Live Activity's update token",
            responses: [200: "the stored activity", 404: "`unknown-activity`"], requestSchema: nil),
        GatewayRoute(
            method: "DELETE", pattern: "/v1/apps/{bundle-id}/live-activities/{activity-id}",
            operation: .deleteActivity, scope: .register, summary: "Forget a Live Activity",
            responses: [204: "forgotten", 404: "`unknown-activity`"], requestSchema: nil),
    ]
}
