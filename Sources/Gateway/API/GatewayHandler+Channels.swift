// The channel routes, mirrored to APNs's channel management (APNS-REFERENCE.md, "Broadcast push")
// through the app's `APNsClient` for the environment asked for (`APNsConnections`). APNs is the
// only record of an app's channels: the gateway keeps none, so a channel made with `herald channels`
// is listed too, and nothing can disagree with APNs.
//
//   environment (body or ?environment=, else the app's default) --not the app's--> 400
//   the app's client for it --none--> 409 no-apns-client
//   the APNs request --ChannelNotRegistered--> 404 unknown-channel
//                    --any other rejection---> 502 apns-error (+ APNs's reason)
//                    --no answer-------------> 503 apns-unavailable
//                    --client unusable-------> 500 apns-client-failure
import APNs
import APNsClient
import HTTP2

extension GatewayHandler {
    /// Runs a channel operation on `app` (already authorized).
    func runChannel(
        _ operation: GatewayRoute.Operation, app: App, _ parameters: HTTPRouteParameters, body: [UInt8],
        query: GatewayQuery
    ) async throws -> GatewayAnswer {
        switch operation {
        case .createChannel:
            try query.allow([])
            let parsed = try ChannelCreationBody(parsing: body, app: app)
            let client = try apnsClient(app, parsed.environment)
            let created = try await Self.callAPNs(parsed.environment, channel: nil) {
                () async throws(APNsClientError) in
                try await client.createChannel(bundleID: app.bundleID, storagePolicy: parsed.storagePolicy)
            }
            let channel = GatewayChannel(
                channelID: created.channelID, storagePolicy: parsed.storagePolicy, environment: parsed.environment)
            return GatewayAnswer(status: 201, body: channel.json)
        case .listChannels:
            try query.allow(GatewayRoute.environmentQuery)
            // No environment: every one the app is configured for, sandbox first.
            var environments = Environment.allCases.filter(app.environments.contains)
            if let text = query["environment"] { environments = [try GatewayJSONBody.environment(text, for: app)] }
            var channels: [JSONValue] = []
            for environment in environments {
                let client = try apnsClient(app, environment)
                let ids = try await Self.callAPNs(environment, channel: nil) { () async throws(APNsClientError) in
                    try await client.listChannels(bundleID: app.bundleID)
                }
                channels += ids.map { GatewayChannel(channelID: $0, environment: environment).json }
            }
            return GatewayAnswer(status: 200, body: ["channels": .array(channels)])
        case .readChannel:
            try query.allow(GatewayRoute.environmentQuery)
            let channelID = try Self.channelID(parameters)
            let environment = try GatewayJSONBody.environment(query["environment"], for: app)
            let client = try apnsClient(app, environment)
            let read = try await Self.callAPNs(environment, channel: channelID) { () async throws(APNsClientError) in
                try await client.readChannel(channelID, bundleID: app.bundleID)
            }
            let channel = GatewayChannel(
                channelID: channelID, storagePolicy: read.configuration.storagePolicy, environment: environment)
            return GatewayAnswer(status: 200, body: channel.json)
        case .deleteChannel:
            try query.allow(GatewayRoute.environmentQuery)
            let channelID = try Self.channelID(parameters)
            let environment = try GatewayJSONBody.environment(query["environment"], for: app)
            let client = try apnsClient(app, environment)
            _ = try await Self.callAPNs(environment, channel: channelID) { () async throws(APNsClientError) in
                try await client.deleteChannel(channelID, bundleID: app.bundleID)
            }
            return GatewayAnswer(status: 204, body: nil)
        default:
            throw GatewayAPIError(
                status: 500, code: "internal", message: "\(operation) is not a channel operation", field: nil)
        }
    }

    /// The app's client for `environment`.
    private func apnsClient(_ app: App, _ environment: Environment) throws(GatewayAPIError) -> APNsClient {
        guard let client = apns.client(bundleID: app.bundleID, environment: environment) else {
            throw .noAPNsClient(app.bundleID, environment)
        }
        return client
    }

    /// The `{channel-id}` path parameter (base64: a '/' in it arrives as %2F).
    private static func channelID(_ parameters: HTTPRouteParameters) throws(GatewayAPIError) -> ChannelID {
        do {
            return try ChannelID(parameters["channel-id"] ?? "")
        } catch {
            throw .badRequest(field: "channel-id", error.message)
        }
    }

    /// Runs one APNs request, its failure as the gateway's error.
    private static func callAPNs<Value>(
        _ environment: Environment, channel: ChannelID?, _ request: () async throws(APNsClientError) -> Value
    ) async throws(GatewayAPIError) -> Value {
        do {
            return try await request()
        } catch {
            throw .apns(error, environment: environment, channel: channel)
        }
    }
}

extension GatewayAPIError {
    static func noAPNsClient(_ bundleID: String, _ environment: Environment) -> GatewayAPIError {
        GatewayAPIError(
            status: 409, code: "no-apns-client",
            message: "the gateway has no APNs credentials for '\(bundleID)' in \(environment)", field: "environment")
    }

    /// An `APNsClient` failure: APNs's `ChannelNotRegistered` for a named channel is the gateway's 404.
    static func apns(_ error: APNsClientError, environment: Environment, channel: ChannelID?) -> GatewayAPIError {
        switch error {
        case .rejected(let rejection):
            if let channel, rejection.reason == .channelNotRegistered {
                return GatewayAPIError(
                    status: 404, code: "unknown-channel",
                    message: "APNs (\(environment)) has no channel '\(channel.value)'", field: "channel-id")
            }
            return GatewayAPIError(
                status: 502, code: "apns-error", message: "APNs (\(environment)) refused the request: \(rejection)",
                field: nil, apnsReason: rejection.reason.rawValue)
        case .transport, .timedOut, .shutDown:
            return GatewayAPIError(
                status: 503, code: "apns-unavailable", message: "APNs (\(environment)) did not answer: \(error)",
                field: nil)
        case .invalidNotification, .invalidConfiguration, .providerToken:
            return GatewayAPIError(
                status: 500, code: "apns-client-failure",
                message: "the gateway could not make the APNs (\(environment)) request: \(error)", field: nil)
        }
    }
}
