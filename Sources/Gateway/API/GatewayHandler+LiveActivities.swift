// The Live Activity routes: push-to-start tokens (one per device and attributes type, listed by
// user) and the update token of each running activity (one per activity id; a new PUT replaces
// it). Both go to the store's `LiveActivityStore`; an upload revives a pruned token, as for devices.
import APNs
import HTTP2

extension GatewayHandler {
    /// Runs a Live Activity operation on `app` (already authorized).
    func runLiveActivity(
        _ operation: GatewayRoute.Operation, app: App, _ parameters: HTTPRouteParameters, body: [UInt8]
    ) async throws -> GatewayAnswer {
        switch operation {
        case .putPushToStart:
            let token = try Self.pathToken(parameters)
            let parsed = try PushToStartBody(parsing: body, app: app)
            let stored = try await store.upsertPushToStartToken(
                bundleID: app.bundleID, token: token, environment: parsed.environment, user: parsed.user,
                attributesType: parsed.attributesType, now: configuration.clock())
            return GatewayAnswer(status: 200, body: stored.json)
        case .deletePushToStart:
            let token = try Self.pathToken(parameters)
            guard try await store.deletePushToStartToken(bundleID: app.bundleID, token: token) else {
                throw GatewayAPIError.unknownPushToStartToken(token)
            }
            return GatewayAnswer(status: 204, body: nil)
        case .userPushToStart:
            let tokens = try await store.pushToStartTokens(bundleID: app.bundleID, user: parameters["user"] ?? "")
            return GatewayAnswer(status: 200, body: ["push-to-start-tokens": .array(tokens.map(\.json))])
        case .putActivity:
            let activityID = try LiveActivityRules.activityID(parameters["activity-id"])
            let parsed = try ActivityTokenBody(parsing: body, app: app)
            let stored = try await store.upsertActivityToken(
                bundleID: app.bundleID, activityID: activityID, token: parsed.token, environment: parsed.environment,
                user: parsed.user, now: configuration.clock())
            return GatewayAnswer(status: 200, body: stored.json)
        case .getActivity:
            let activityID = try LiveActivityRules.activityID(parameters["activity-id"])
            guard let stored = try await store.activityToken(bundleID: app.bundleID, activityID: activityID) else {
                throw GatewayAPIError.unknownActivity(activityID)
            }
            return GatewayAnswer(status: 200, body: stored.json)
        case .deleteActivity:
            let activityID = try LiveActivityRules.activityID(parameters["activity-id"])
            guard try await store.deleteActivityToken(bundleID: app.bundleID, activityID: activityID) else {
                throw GatewayAPIError.unknownActivity(activityID)
            }
            return GatewayAnswer(status: 204, body: nil)
        default:
            throw GatewayAPIError(
                status: 500, code: "internal", message: "\(operation) is not a Live Activity operation", field: nil)
        }
    }

    /// The `{token}` path parameter.
    static func pathToken(_ parameters: HTTPRouteParameters) throws(GatewayAPIError) -> DeviceToken {
        do {
            return try DeviceToken(hex: parameters["token"] ?? "")
        } catch {
            throw .badRequest(error)
        }
    }
}

extension GatewayAPIError {
    static func unknownPushToStartToken(_ token: DeviceToken) -> GatewayAPIError {
        GatewayAPIError(
            status: 404, code: "unknown-push-to-start-token", message: "no push-to-start token '\(token.hex)'",
            field: "token")
    }

    static func unknownActivity(_ activityID: String) -> GatewayAPIError {
        GatewayAPIError(
            status: 404, code: "unknown-activity", message: "no Live Activity '\(activityID)'", field: "activity-id")
    }
}
