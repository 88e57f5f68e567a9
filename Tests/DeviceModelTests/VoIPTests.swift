import APNs
import DeviceModel
import Testing

/// DEVICE-SEMANTICS.md 10: PushKit VoIP pushes, each test named after its rule.
@Suite(.timeLimit(.minutes(1)))
struct VoIPTests {
    /// A launched, backgrounded app with the voip mode and a registry whose handler does `handling`.
    private func fixture(_ handling: VoIPPushHandling, modes: Set<BackgroundMode> = [.voip]) -> (
        DeviceFixture, PushRegistry
    ) {
        let fixture = DeviceFixture(AppConfiguration(bundleID: DeviceFixture.bundleID, backgroundModes: modes))
        fixture.app.launch()
        let registry = fixture.app.createPushRegistry { _ in handling }
        fixture.app.moveToBackground()
        return (fixture, registry)
    }

    private func voip(_ fixture: DeviceFixture, _ registry: PushRegistry) throws {
        fixture.device.receive(
            RemotePush(
                token: try DeviceToken(bytes: registry.voipToken), pushType: .voip,
                payload: Array(#"{"caller":"Alice"}"#.utf8)))
    }

    @Test("VOIP-REGISTRY (10, D): a VoIP token of its own; without the voip mode the push goes nowhere; never shown")
    func registryToken() throws {
        let (fixture, registry) = fixture(.reportedCall, modes: [])
        #expect(registry.voipToken != fixture.app.deviceToken && registry.voipToken.count == 32)
        #expect(fixture.app.createPushRegistry(didReceiveIncomingPush: nil) === registry)
        try voip(fixture, registry)
        #expect(fixture.entries(.voipRegistry).last?.message.contains("lacks the voip background mode") == true)
        #expect(fixture.app.presentations.isEmpty)
    }

    @Test("VOIP-REPORT-CALL (10, D): a reported call keeps the app running; an unreported push terminates it")
    func reportOrBeTerminated() throws {
        let (reported, reportedRegistry) = fixture(.reportedCall)
        try voip(reported, reportedRegistry)
        #expect(reported.app.state == .background)
        #expect(reported.entries(.voipReportCall).last?.message.contains("CallKit shows it") == true)

        let (silent, silentRegistry) = fixture(.noCallReported)
        try voip(silent, silentRegistry)
        #expect(silent.app.state == .notRunning)
        #expect(silent.entries(.voipReportCall).last?.message.contains("the app is terminated") == true)
        #expect(silent.app.presentations.isEmpty)
    }

    @Test("VOIP-CUT-OFF (10, U: after 3 in a row, until a reinstall): the system stops launching the app")
    func cutOffAfterRepeatedFailures() throws {
        let (fixture, registry) = fixture(.noCallReported)
        for _ in 0..<4 { try voip(fixture, registry) }
        let cutOff = fixture.entries(.voipCutOff)
        #expect(cutOff.count == 2)
        #expect(cutOff.last?.message.contains("no longer launches the app") == true)
        #expect(fixture.entries(.voipReportCall).count == 3)

        fixture.app.reinstall()
        fixture.app.launch()
        let fresh = fixture.app.createPushRegistry { _ in .reportedCall }
        try voip(fixture, fresh)
        #expect(fixture.entries(.voipReportCall).last?.message.contains("reported an incoming call") == true)
    }
}
