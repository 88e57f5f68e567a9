import APNs
import Keys

extension EmulatorHandler {
    /// What a verified provider token may do: its key must be valid in this environment
    /// (403 BadEnvironmentKeyIdInToken) and its team must own the topic (403 InvalidProviderToken:
    /// "topic not covered by the key"). Runs after ``authenticate``, for every request.
    func authorize(_ headers: ValidatedHeaders, state: ConnectionState) -> Result<Void, PushRejection> {
        guard let keyID = state.boundKeyID, let key = keysByID[keyID] else { return .success(()) }
        switch (key.environment, configuration.sandbox) {
        case (.sandbox, false), (.production, true):
            return .failure(PushRejection(status: 403, reason: .badEnvironmentKeyIdInToken, apnsID: headers.apnsID))
        default:
            break
        }
        if !key.bundleIDs.isEmpty, let topic = headers.topic, !key.bundleIDs.contains(topic.bundleID) {
            return .failure(PushRejection(status: 403, reason: .invalidProviderToken, apnsID: headers.apnsID))
        }
        return .success(())
    }

    /// Certificate auth: the client certificate must be an APNs push certificate (topics, else 403
    /// BadCertificate) for this environment (else 403 BadCertificateEnvironment; a certificate
    /// marked for no environment is taken as valid in both).
    func checkCertificate(_ certificate: Certificate?, _ headers: ValidatedHeaders) -> Result<Void, PushRejection> {
        guard let certificate, !certificate.apnsTopics.isEmpty else {
            return .failure(PushRejection(status: 403, reason: .badCertificate, apnsID: headers.apnsID))
        }
        let environments = certificate.apnsEnvironments
        let wanted: APNsEnvironment = configuration.sandbox ? .development : .production
        if !environments.isEmpty, !environments.contains(wanted) {
            return .failure(PushRejection(status: 403, reason: .badCertificateEnvironment, apnsID: headers.apnsID))
        }
        return .success(())
    }
}
