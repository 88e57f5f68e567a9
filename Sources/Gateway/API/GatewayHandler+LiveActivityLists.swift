// The console's lists of an app's Live Activity tokens: GET /v1/apps/{bundle-id}/live-activities
// (update tokens by activity id) and GET /v1/apps/{bundle-id}/push-to-start (push-to-start tokens in
// registration order), a page at a time (`limit` 1-1000, default 100; `cursor`: the page before's
// `next-cursor`, opaque to clients).
import APNs

extension GatewayHandler {
    func runLiveActivityList(_ operation: GatewayRoute.Operation, app: App, query: GatewayQuery) async throws
        -> GatewayAnswer
    {
        try query.allow(DeliveriesQuery.parameters)
        let limit = try DeliveriesQuery.limit(query["limit"])
        func next(_ cursor: String?) -> JSONValue { cursor.map(JSONValue.string) ?? .null }
        if operation == .listActivities {
            let page = try await store.activityTokens(bundleID: app.bundleID, after: query["cursor"], limit: limit)
            return GatewayAnswer(
                status: 200,
                body: ["activities": .array(page.activities.map(\.json)), "next-cursor": next(page.nextCursor)])
        }
        let cursor = try query["cursor"].map { value throws(GatewayAPIError) in
            guard let number = DeliveriesQuery.digits(value) else {
                throw .badRequest(
                    field: "cursor", "'\(value)' is not a cursor; pass the next-cursor of the page before")
            }
            return number
        }
        let page = try await store.pushToStartTokens(bundleID: app.bundleID, after: cursor, limit: limit)
        return GatewayAnswer(
            status: 200,
            body: [
                "push-to-start-tokens": .array(page.tokens.map(\.json)),
                "next-cursor": next(page.nextCursor.map(String.init)),
            ])
    }
}
