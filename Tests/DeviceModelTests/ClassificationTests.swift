import APNs
import DeviceModel
import Testing

/// DEVICE-SEMANTICS.md 3.2 and 3.3: what a push is, read from the APNs payload.
@Suite(.timeLimit(.minutes(1)))
struct ClassificationTests {
    @Test(
        "CLASSIFY-* (3.3, D): alert, sound or badge is an alert; content-available alone is background; both are both",
        arguments: [
            (#"{"aps":{"alert":"hi"}}"#, PushClassification.alert),
            (#"{"aps":{"sound":"default"}}"#, .alert),
            (#"{"aps":{"badge":0}}"#, .alert),
            (#"{"aps":{"content-available":1}}"#, .background),
            (#"{"aps":{"alert":{"title":"t"},"content-available":1}}"#, .alertAndBackground),
            (#"{"aps":{"content-available":0}}"#, .nothing),
            (#"{"aps":{},"custom":1}"#, .nothing),
        ])
    func classification(_ json: String, _ expected: PushClassification) throws {
        let payload = try Payload(bytes: Array(json.utf8))
        #expect(PushClassification(try #require(payload.aps)) == expected)
    }

    @Test("CLASSIFY-BACKGROUND and BACKGROUND-WAKE (3.3, 7, D): a background push wakes the app and shows nothing")
    func backgroundPushWakesTheApp() throws {
        let fixture = DeviceFixture.ready(
            AppConfiguration(bundleID: DeviceFixture.bundleID, backgroundModes: [.remoteNotification]))
        var woken: [JSONObject] = []
        fixture.app.delegate.didReceiveRemoteNotification = { woken.append($0) }
        try fixture.push(#"{"aps":{"content-available":1},"order":42}"#)
        #expect(woken.count == 1)
        #expect(woken.first?["order"] == 42, "userInfo is the whole payload")
        #expect(fixture.app.presentations.isEmpty)
        #expect(fixture.entries(.classifyBackground).count == 1)
    }

    @Test("CLASSIFY-ALERT-BACKGROUND (3.3, D): an alert with content-available is shown and also wakes the app")
    func alertWithContentAvailableDoesBoth() throws {
        let fixture = DeviceFixture.ready(
            AppConfiguration(bundleID: DeviceFixture.bundleID, backgroundModes: [.remoteNotification]))
        var woken = 0
        fixture.app.delegate.didReceiveRemoteNotification = { _ in woken += 1 }
        try fixture.push(#"{"aps":{"alert":"both","content-available":1}}"#)
        #expect(woken == 1)
        #expect(fixture.app.presentations.count == 1)
    }

    @Test(
        "BACKGROUND-WAKE (7, D): no wake without the background mode, after a force-quit, or before the first launch")
    func backgroundPushesThatWakeNothing() throws {
        let withoutMode = DeviceFixture.ready()
        var woken = 0
        withoutMode.app.delegate.didReceiveRemoteNotification = { _ in woken += 1 }
        try withoutMode.push(#"{"aps":{"content-available":1}}"#)

        let configuration = AppConfiguration(bundleID: DeviceFixture.bundleID, backgroundModes: [.remoteNotification])
        let forceQuit = DeviceFixture.ready(configuration)
        forceQuit.app.delegate.didReceiveRemoteNotification = { _ in woken += 1 }
        forceQuit.app.forceQuit()
        try forceQuit.push(#"{"aps":{"content-available":1}}"#)

        let neverLaunched = DeviceFixture(configuration)
        neverLaunched.app.registerForRemoteNotifications()
        neverLaunched.app.delegate.didReceiveRemoteNotification = { _ in woken += 1 }
        try neverLaunched.push(#"{"aps":{"content-available":1}}"#)

        #expect(woken == 0)
        let reasons = [withoutMode, forceQuit, neverLaunched].compactMap { $0.entries(.backgroundWake).last?.message }
        #expect(reasons.count == 3)
        #expect(reasons[0].contains("remote-notification background mode"))
        #expect(reasons[1].contains("force-quit"))
        #expect(reasons[2].contains("never launched"))
    }

    @Test("PUSH-IDENTIFIER (3.2, D): apns-collapse-id becomes the identifier, else the system assigns one")
    func identifierFromCollapseID() throws {
        let fixture = DeviceFixture.ready()
        try fixture.push(#"{"aps":{"alert":"a"}}"#, collapseID: "order-7")
        try fixture.push(#"{"aps":{"alert":"b"}}"#, collapseID: nil)
        let ids = fixture.app.presentations.map(\.notification.request.identifier)
        #expect(ids.first == "order-7")
        #expect(ids.count == 2 && ids[1] != "order-7" && ids[1].count == 36)
    }

    @Test("PUSH-PAYLOAD (3, U: dropped): a payload that is not an object with aps is recorded and shows nothing")
    func badPayloadIsDropped() throws {
        let fixture = DeviceFixture.ready()
        try fixture.push("not json")
        try fixture.push(#"{"custom":1}"#)
        try fixture.push(#"{"aps":{"badge":"three"}}"#)
        #expect(fixture.app.presentations.isEmpty)
        let messages = fixture.entries(.pushPayload).map(\.message)
        #expect(messages.count == 3)
        #expect(messages[2].contains("aps.badge"), "the error names the field")
    }

    @Test(
        "PUSH-TYPE-NOT-MODELLED (3, U: recorded): push types other than alert, background, liveactivity: not modelled")
    func otherPushTypesAreRecorded() throws {
        let fixture = DeviceFixture.ready()
        try fixture.push(#"{"aps":{}}"#, pushType: .location)
        #expect(fixture.entries(.pushTypeNotModelled).count == 1)
    }
}
