import APNs
import DeviceModel
import Testing

/// A service extension whose behaviour a test scripts: it keeps the handler so the test decides when to call.
final class ScriptedExtension: NotificationServiceExtension {
    var received: [NotificationRequest] = []
    var handler: ((NotificationContent) -> Void)?
    /// Called from `didReceive` when set.
    var onReceive: ((NotificationRequest, (NotificationContent) -> Void) -> Void)?
    /// Called from `serviceExtensionTimeWillExpire` when set.
    var onExpire: (() -> Void)?
    var expireCalls = 0

    func didReceive(
        _ request: NotificationRequest, withContentHandler contentHandler: @escaping (NotificationContent) -> Void
    ) {
        received.append(request)
        handler = contentHandler
        onReceive?(request, contentHandler)
    }

    func serviceExtensionTimeWillExpire() {
        expireCalls += 1
        onExpire?()
    }
}

/// DEVICE-SEMANTICS.md 3.4: the notification service extension, each test named after its rule.
@Suite(.timeLimit(.minutes(1)))
struct ServiceExtensionTests {
    static let mutable = #"{"aps":{"alert":{"title":"New message","body":"(encrypted)"},"mutable-content":1}}"#

    private func fixture(
        _ entitlements: Entitlements = Entitlements(), options: AuthorizationOptions = [.alert, .sound, .badge]
    ) -> (DeviceFixture, ScriptedExtension) {
        let fixture = DeviceFixture.ready(
            AppConfiguration(bundleID: DeviceFixture.bundleID, entitlements: entitlements), options: options)
        let serviceExtension = ScriptedExtension()
        fixture.app.serviceExtension = serviceExtension
        return (fixture, serviceExtension)
    }

    private func rewritten(_ body: String) -> NotificationContent {
        NotificationContent(title: "Alice", body: body)
    }

    @Test("NSE-MODIFIED (3.4, D): content handed back within the budget is shown")
    func modifiedContentIsShown() throws {
        let (fixture, serviceExtension) = fixture()
        try fixture.push(Self.mutable)
        #expect(serviceExtension.received.first?.content.body == "(encrypted)")
        #expect(fixture.app.presentations.isEmpty, "nothing shows while the extension runs")
        fixture.device.advance(by: 12)
        serviceExtension.handler?(rewritten("Lunch at noon?"))
        let shown = try #require(fixture.lastPresentation)
        #expect(shown.notification.request.content.body == "Lunch at noon?")
        #expect(shown.notification.date == fixture.clock.now, "shown when the handler was called")
        #expect(fixture.entries(.serviceExtensionModified).first?.message.contains("after 12 s") == true)
    }

    @Test("NSE-RUNS (3.4, D): the extension runs only with mutable-content, alert text and alerts enabled")
    func extensionRunsOnlyWhenAllowed() throws {
        let (fixture, serviceExtension) = fixture()
        try fixture.push(#"{"aps":{"alert":"no mutable-content"}}"#, collapseID: "a")
        try fixture.push(#"{"aps":{"sound":"default","mutable-content":1}}"#, collapseID: "b")
        try fixture.push(#"{"aps":{"content-available":1,"mutable-content":1}}"#, collapseID: "c")
        fixture.app.notificationCenter.userChangesSettings { $0.alertSetting = .disabled }
        try fixture.push(Self.mutable, collapseID: "d")
        #expect(serviceExtension.received.isEmpty)
        let reasons = fixture.entries(.serviceExtensionRuns).map(\.message)
        #expect(reasons.count == 2)
        #expect(reasons[0].contains("no title, subtitle or body"))
        #expect(reasons[1].contains("alertSetting is disabled"))
    }

    @Test("NSE-TIME-LIMIT (3.4, D): after 30 s serviceExtensionTimeWillExpire runs; never called, the original shows")
    func neverCalledShowsOriginal() throws {
        let (fixture, serviceExtension) = fixture()
        try fixture.push(Self.mutable)
        fixture.device.advance(by: 29)
        #expect(serviceExtension.expireCalls == 0 && fixture.app.presentations.isEmpty)
        fixture.device.advance(by: 1)
        #expect(serviceExtension.expireCalls == 1)
        let shown = try #require(fixture.lastPresentation)
        #expect(shown.notification.request.content.body == "(encrypted)")
        #expect(fixture.entries(.serviceExtensionTimeLimit).count == 2)
    }

    @Test("NSE-TIME-LIMIT (3.4, D): the deadline is kept on the model clock even when the clock jumps past it")
    func deadlineOnTheModelClock() throws {
        let (fixture, _) = fixture()
        let start = fixture.clock.now
        try fixture.push(Self.mutable)
        fixture.device.advance(by: 300)
        let shown = try #require(fixture.lastPresentation)
        #expect(shown.notification.date == start + 30)
        #expect(fixture.entries(.serviceExtensionTimeLimit).allSatisfy { $0.time == start + 30 })
    }

    @Test("NSE-TIME-LIMIT (3.4, D): a handler called inside serviceExtensionTimeWillExpire still counts")
    func handlerInsideWillExpireCounts() throws {
        let (fixture, serviceExtension) = fixture()
        // Unowned: the extension keeps this closure, so a strong capture made a cycle that kept the
        // extension and its session alive after the test (LeakSanitizer reported it).
        serviceExtension.onExpire = { [unowned serviceExtension] in
            serviceExtension.handler?(NotificationContent(title: "Alice", body: "best attempt"))
        }
        try fixture.push(Self.mutable)
        fixture.device.advance(by: 30)
        #expect(fixture.lastPresentation?.notification.request.content.body == "best attempt")
        #expect(fixture.app.presentations.count == 1)
    }

    @Test("NSE-HANDLER-ONCE (3.4, U: ignored and reported): a late or second call changes nothing")
    func secondAndLateCallsAreIgnored() throws {
        let (fixture, serviceExtension) = fixture()
        serviceExtension.onReceive = { _, handler in
            handler(NotificationContent(title: "Alice", body: "first"))
            handler(NotificationContent(title: "Alice", body: "second"))
        }
        try fixture.push(Self.mutable, collapseID: "twice")
        #expect(fixture.app.presentations.map(\.notification.request.content.body) == ["first"])

        serviceExtension.onReceive = nil
        try fixture.push(Self.mutable, collapseID: "late")
        fixture.clock.advance(by: 31)  // past the deadline, and nothing has run it yet
        serviceExtension.handler?(NotificationContent(title: "Alice", body: "too late"))
        #expect(fixture.app.presentations.map(\.notification.request.content.body) == ["first", "(encrypted)"])
        let ignored = fixture.entries(.serviceExtensionHandlerOnce).map(\.message)
        #expect(
            ignored == [
                "content handler called again (call 2): ignored",
                "content handler called after the 30 seconds ran out: ignored",
            ])
    }

    @Test("NSE-NO-ALERT-TEXT (3.4, D): content without alert text is ignored and the original shown")
    func contentWithoutAlertTextShowsOriginal() throws {
        let (fixture, serviceExtension) = fixture()
        serviceExtension.onReceive = { _, handler in handler(NotificationContent(badge: 1)) }
        try fixture.push(Self.mutable)
        #expect(fixture.lastPresentation?.notification.request.content.title == "New message")
        #expect(fixture.entries(.serviceExtensionNoAlertText).count == 1)
    }

    @Test("NSE-FILTERED (3.4, D): with the filtering entitlement, empty content suppresses; without it, the original")
    func filteringEntitlement() throws {
        let (filtering, filteringExtension) = fixture(Entitlements(filtering: true))
        filteringExtension.onReceive = { _, handler in handler(NotificationContent()) }
        try filtering.push(Self.mutable)
        #expect(filtering.app.presentations.isEmpty)
        #expect(filtering.entries(.serviceExtensionFiltered).first?.kind == .notShown)

        let (plain, plainExtension) = fixture()
        plainExtension.onReceive = { _, handler in handler(NotificationContent()) }
        try plain.push(Self.mutable)
        #expect(plain.lastPresentation?.notification.request.content.body == "(encrypted)")
    }
}
