// The emulator handler's device hooks: strict tokens, and the stream limit for device connections.
// Strict tokens (EmulatorConfiguration.strictTokens): a device push must name a token a simulated
// device registered, for the topic's app and the emulator's environment. Checked after the 410
// check and before the provider token, where APNs checks token-for-topic.

import APNs
import HTTP2

extension EmulatorHandler {
    /// The emulator's environment: Apple's sandbox or production.
    var environment: DeviceEnvironment { configuration.sandbox ? .sandbox : .production }

    func checkRegistered(_ headers: ValidatedHeaders) -> Result<ValidatedHeaders, PushRejection> {
        guard configuration.strictTokens else { return .success(headers) }
        let reject = { (reason: Reason) in
            Result<ValidatedHeaders, PushRejection>.failure(
                PushRejection(status: reason.status ?? 400, reason: reason, apnsID: headers.apnsID))
        }
        guard let route = devices.route(for: headers.token.hex), route.environment == environment else {
            return reject(.badDeviceToken)
        }
        if let topic = headers.topic, topic.bundleID != route.bundleID {
            return reject(.deviceTokenNotForTopic)
        }
        return .success(headers)
    }
}

extension EmulatorHandler {
    /// A device's connection holds a long-lived stream and makes other requests beside it, and
    /// never sends a provider token: its first device request lifts APNs's initial limit of one
    /// stream, as an accepted provider token would.
    func raiseStreamLimitForDevice(_ connection: HTTP2ServerConnectionContext) {
        guard let state = connection.userData as? ConnectionState, !state.raised else { return }
        state.raised = true
        connection.setMaxConcurrentStreams(configuration.authenticatedMaxConcurrentStreams)
    }
}
