import APNs
import HTTP2

extension GatewayHandler {
    /// Runs an authorized operation on `app`.
    func run(
        _ operation: GatewayRoute.Operation, app: App, _ parameters: HTTPRouteParameters, body: [UInt8],
        query: GatewayQuery
    ) async throws(GatewayAPIError) -> GatewayAnswer {
        do {
            switch operation {
            case .putDevice:
                let token = try Self.token(parameters)
                let registration = try Self.registration(body, app: app, token: token)
                let device = try await store.upsertDevice(registration, now: configuration.clock())
                return GatewayAnswer(status: 200, body: device.json)
            case .getDevice:
                let token = try Self.token(parameters)
                guard let device = try await store.device(bundleID: app.bundleID, token: token) else {
                    throw GatewayAPIError.unknownDevice(token)
                }
                return GatewayAnswer(status: 200, body: device.json)
            case .deleteDevice:
                let token = try Self.token(parameters)
                guard try await store.deleteDevice(bundleID: app.bundleID, token: token) else {
                    throw GatewayAPIError.unknownDevice(token)
                }
                return GatewayAnswer(status: 204, body: nil)
            case .userDevices:
                let user = parameters["user"] ?? ""
                let devices = try await store.devices(bundleID: app.bundleID, user: user)
                return GatewayAnswer(status: 200, body: ["devices": .array(devices.map(\.json))])
            case .putPushToStart, .deletePushToStart, .userPushToStart, .putActivity, .getActivity, .deleteActivity:
                return try await runLiveActivity(operation, app: app, parameters, body: body)
            case .listActivities, .listPushToStart:
                return try await runLiveActivityList(operation, app: app, query: query)
            case .createChannel, .listChannels, .readChannel, .deleteChannel:
                return try await runChannel(operation, app: app, parameters, body: body, query: query)
            default:
                // Answered on the loop (health, OpenAPI) or by the notification routes, never here.
                throw GatewayAPIError(
                    status: 500, code: "internal", message: "\(operation) is not a store operation", field: nil)
            }
        } catch let error as GatewayAPIError {
            throw error
        } catch let error as GatewayStoreError {
            throw .store(error)
        } catch {
            throw GatewayAPIError(status: 500, code: "internal", message: "\(error)", field: nil)
        }
    }

    private static func token(_ parameters: HTTPRouteParameters) throws(GatewayAPIError) -> DeviceToken {
        do {
            return try DeviceToken(hex: parameters["token"] ?? "")
        } catch {
            throw .badRequest(error)
        }
    }

    private static func registration(_ body: [UInt8], app: App, token: DeviceToken) throws(GatewayAPIError)
        -> DeviceRegistration
    {
        let parsed = try DeviceRegistrationBody(parsing: body)
        let environment = parsed.environment ?? app.defaultEnvironment
        guard app.environments.contains(environment) else {
            let configured = app.environments.map(\.rawValue).sorted().joined(separator: ", ")
            throw .badRequest(
                field: "environment", "is \(environment); '\(app.bundleID)' is configured for \(configured) only")
        }
        return DeviceRegistration(
            bundleID: app.bundleID, token: token, environment: environment, user: parsed.user, tags: parsed.tags,
            locale: parsed.locale, appVersion: parsed.appVersion)
    }
}
