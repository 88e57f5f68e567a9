import APNs
import DeviceModel
import Testing

/// The scripted extension that device profiles will use, one behaviour per test, each ending in the rule
/// of DEVICE-SEMANTICS.md 3.4 it shows.
@Suite(.timeLimit(.minutes(1)))
struct ScriptedServiceExtensionTests {
    static let payload = #"{"aps":{"alert":{"title":"New message","body":"(encrypted)"},"mutable-content":1}}"#
    static let decrypted = NotificationContent(title: "Alice", body: "Lunch?")

    private func run(
        _ behaviour: ScriptedServiceExtension.Behaviour, entitlements: Entitlements = Entitlements(),
        advance seconds: Double = 60
    ) throws -> DeviceFixture {
        let fixture = DeviceFixture.ready(
            AppConfiguration(bundleID: DeviceFixture.bundleID, entitlements: entitlements))
        fixture.app.serviceExtension = ScriptedServiceExtension(behaviour, device: fixture.device)
        try fixture.push(Self.payload)
        fixture.device.advance(by: seconds)
        return fixture
    }

    private func shownBodies(_ fixture: DeviceFixture) -> [String] {
        fixture.app.presentations.map(\.notification.request.content.body)
    }

    @Test("NSE-MODIFIED (3.4, D): rewrite after 10 s is shown at +10 s")
    func rewriteWithinBudget() throws {
        let start = VirtualClock().now
        let fixture = try run(.rewrite(Self.decrypted, after: 10))
        #expect(shownBodies(fixture) == ["Lunch?"])
        #expect(fixture.lastPresentation?.notification.date == start + 10)
    }

    @Test("NSE-TIME-LIMIT and NSE-HANDLER-ONCE (3.4, D and U): a rewrite after 45 s is too late; the original shows")
    func rewriteTooLate() throws {
        let fixture = try run(.rewrite(Self.decrypted, after: 45))
        #expect(shownBodies(fixture) == ["(encrypted)"])
        #expect(fixture.entries(.serviceExtensionHandlerOnce).count == 1)
    }

    @Test("NSE-TIME-LIMIT (3.4, D): a rewrite made in serviceExtensionTimeWillExpire counts")
    func rewriteOnExpiry() throws {
        #expect(shownBodies(try run(.rewriteOnExpiry(Self.decrypted))) == ["Lunch?"])
    }

    @Test("NSE-TIME-LIMIT (3.4, D): never calling shows the original after 30 s")
    func neverCall() throws {
        #expect(shownBodies(try run(.neverCall, advance: 29)).isEmpty)
        #expect(shownBodies(try run(.neverCall)) == ["(encrypted)"])
    }

    @Test("NSE-HANDLER-ONCE (3.4, U: ignored and reported): a second call changes nothing")
    func callTwice() throws {
        let fixture = try run(.callTwice(Self.decrypted))
        #expect(shownBodies(fixture) == ["Lunch?"])
        #expect(fixture.entries(.serviceExtensionHandlerOnce).count == 1)
    }

    @Test("NSE-FILTERED (3.4, D): suppress hides the notification only with the filtering entitlement")
    func suppress() throws {
        #expect(shownBodies(try run(.suppress, entitlements: Entitlements(filtering: true))).isEmpty)
        #expect(shownBodies(try run(.suppress)) == ["(encrypted)"])
    }

    @Test("NSE-MODIFIED (3.4, D): pass-through shows the original at once")
    func passThrough() throws {
        #expect(shownBodies(try run(.passThrough, advance: 0)) == ["(encrypted)"])
    }
}
