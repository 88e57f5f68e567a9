import APNs

// VoIP pushes through PushKit (DEVICE-SEMANTICS.md 10): never displayed; the app is launched in the
// background and must report a call to CallKit before its handler returns, or it is terminated; after
// repeated failures the system stops launching it for VoIP pushes (until a reinstall).

extension InstalledApp {
    /// Creates the app's `PKPushRegistry` with `desiredPushTypes = [.voIP]`: the VoIP token is handed over at
    /// once. Again later: the same token, the new handler.
    @discardableResult
    public func createPushRegistry(didReceiveIncomingPush: ((JSONObject) -> VoIPPushHandling)?) -> PushRegistry {
        if let registry = pushRegistry {
            registry.didReceiveIncomingPush = didReceiveIncomingPush
            return registry
        }
        var generator = SplitMix64(
            seed: SplitMix64.mix(context.seed) ^ fnv1a(bundleID + " voip") ^ SplitMix64.mix(tokenGeneration))
        let token = (0..<4).flatMap { _ in withUnsafeBytes(of: generator.next().bigEndian, Array.init) }
        let registry = PushRegistry(voipToken: token, didReceiveIncomingPush: didReceiveIncomingPush)
        pushRegistry = registry
        context.record(
            .registration, .voipRegistry, "PushKit: VoIP token \(hex(token)) (didUpdate pushCredentials)",
            app: bundleID)
        return registry
    }

    func receiveVoIPPush(_ push: RemotePush, userInfo: JSONObject) {
        let apnsID = push.apnsID.map { " apns-id \($0)" } ?? ""
        guard configuration.backgroundModes.contains(.voip) else {
            context.record(
                .dropped, .voipRegistry, "VoIP push\(apnsID): the app lacks the voip background mode", app: bundleID)
            return
        }
        let cutOff = context.configuration.voipFailuresBeforeCutOff
        guard unreportedVoIPPushes < cutOff else {
            context.record(
                .dropped, .voipCutOff,
                "VoIP push\(apnsID): the system no longer launches the app for VoIP pushes (it failed to report "
                    + "an incoming call too many times)", app: bundleID)
            return
        }
        if state == .notRunning || state == .forceQuit { state = .background }
        let handling = pushRegistry?.didReceiveIncomingPush?(userInfo) ?? .noCallReported
        if handling == .reportedCall {
            unreportedVoIPPushes = 0
            context.record(
                .appWoken, .voipReportCall,
                "VoIP push\(apnsID): the app (\(state.rawValue)) reported an incoming call; CallKit shows it",
                app: bundleID)
            return
        }
        unreportedVoIPPushes += 1
        state = .notRunning
        context.record(
            .dropped, .voipReportCall,
            "VoIP push\(apnsID): the handler returned without reporting a call: the app is terminated "
                + "(\(unreportedVoIPPushes) in a row)", app: bundleID)
        if unreportedVoIPPushes == cutOff {
            context.record(
                .dropped, .voipCutOff,
                "\(cutOff) unreported VoIP pushes in a row: the system stops launching the app for VoIP pushes",
                app: bundleID)
        }
    }
}
