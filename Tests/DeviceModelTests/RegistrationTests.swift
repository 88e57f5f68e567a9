import APNs
import DeviceModel
import Testing

/// DEVICE-SEMANTICS.md section 2: remote registration, each test named after its rule.
@Suite(.timeLimit(.minutes(1)))
struct RegistrationTests {
    @Test("REG-INDEPENDENT (2, D): an app registers without asking for authorization, and its alerts stay silent")
    func registrationDoesNotNeedAuthorization() throws {
        let fixture = DeviceFixture()
        var received: [[UInt8]] = []
        fixture.app.delegate.didRegisterForRemoteNotifications = { received.append($0) }
        let outcome = fixture.app.registerForRemoteNotifications()
        let token = try #require(received.first)
        #expect(outcome == .registered(token: token))
        #expect(fixture.app.isRegisteredForRemoteNotifications)
        #expect(fixture.app.notificationCenter.notificationSettings().authorizationStatus == .notDetermined)

        // PUSH-UNAUTHORIZED (2, D): without authorization the push is delivered silently.
        try fixture.push(#"{"aps":{"alert":"hello"}}"#)
        #expect(fixture.app.presentations.isEmpty)
        #expect(fixture.entries(.unauthorizedSilent).count == 1)
    }

    @Test("REG-TOKEN (2, D): the token is bytes whose hex a backend stores; registering again gives the same token")
    func tokenBytesAndHex() throws {
        let fixture = DeviceFixture()
        guard case .registered(let bytes) = fixture.app.registerForRemoteNotifications() else {
            Issue.record("registration failed")
            return
        }
        #expect(bytes.count == 32)
        let hex = try #require(fixture.app.deviceTokenHex)
        #expect(hex == (try DeviceToken(bytes: bytes)).hex)
        #expect(hex.count == DeviceToken.typicalDeviceLength)
        #expect(fixture.app.registerForRemoteNotifications() == .registered(token: bytes))
    }

    @Test("REG-TOKEN (2, D): tokens are unique per app and device, and reproduce from the device's seed")
    func tokensAreUniquePerAppAndDevice() {
        func token(seed: UInt64, bundleID: String) -> String? {
            let device = Device(seed: seed)
            let app = device.install(AppConfiguration(bundleID: bundleID))
            app.registerForRemoteNotifications()
            return app.deviceTokenHex
        }
        let a = token(seed: 1, bundleID: "com.example.a")
        #expect(a != nil)
        #expect(a == token(seed: 1, bundleID: "com.example.a"))
        #expect(a != token(seed: 1, bundleID: "com.example.b"))
        #expect(a != token(seed: 2, bundleID: "com.example.a"))
    }

    @Test("REG-ENVIRONMENT (2, O): sandbox and production tokens differ")
    func sandboxAndProductionTokensDiffer() {
        let sandbox = DeviceFixture(AppConfiguration(bundleID: "com.example.app"))
        let production = DeviceFixture(
            AppConfiguration(bundleID: "com.example.app", entitlements: Entitlements(apsEnvironment: .production)))
        sandbox.app.registerForRemoteNotifications()
        production.app.registerForRemoteNotifications()
        #expect(sandbox.app.deviceTokenHex != nil)
        #expect(sandbox.app.deviceTokenHex != production.app.deviceTokenHex)
    }

    @Test("REG-NO-ENTITLEMENT (2, D): without aps-environment registration fails through the delegate")
    func registrationFailsWithoutEntitlement() {
        let fixture = DeviceFixture(
            AppConfiguration(bundleID: "com.example.app", entitlements: Entitlements(apsEnvironment: nil)))
        var failures: [RegistrationError] = []
        fixture.app.delegate.didFailToRegisterForRemoteNotifications = { failures.append($0) }
        #expect(fixture.app.registerForRemoteNotifications() == .failed(.missingAPSEnvironment))
        #expect(failures == [.missingAPSEnvironment])
        #expect(!fixture.app.isRegisteredForRemoteNotifications)
        #expect("\(RegistrationError.missingAPSEnvironment)".contains("aps-environment"))
    }

    @Test("REG-OFFLINE-FIRST (2, O): a first registration while offline calls neither callback")
    func firstRegistrationOfflineCallsNothing() {
        let fixture = DeviceFixture()
        var calls = 0
        fixture.app.delegate.didRegisterForRemoteNotifications = { _ in calls += 1 }
        fixture.app.delegate.didFailToRegisterForRemoteNotifications = { _ in calls += 1 }
        fixture.device.isOnline = false
        #expect(fixture.app.registerForRemoteNotifications() == .noCallback)
        #expect(calls == 0)
        fixture.device.isOnline = true
        fixture.app.registerForRemoteNotifications()
        #expect(calls == 1)
    }

    @Test("REG-ROTATION (2, D): a backup restore hands the app a new token unprompted; the old one reaches nobody")
    func backupRestoreRotatesTheToken() throws {
        let fixture = DeviceFixture.ready()
        let old = try fixture.token
        var told: [String] = []
        fixture.app.delegate.didRegisterForRemoteNotifications = { told.append(Hex.encode($0)) }
        fixture.device.rotateTokens(.backupRestore)
        let new = try fixture.token
        #expect(new != old)
        #expect(told == [new.hex], "UIKit calls the delegate without a registration")

        // REG-TOKEN-NOT-CURRENT (2, U: dropped)
        fixture.device.receive(RemotePush(token: old, payload: Array(#"{"aps":{"alert":"to the old token"}}"#.utf8)))
        #expect(fixture.app.presentations.isEmpty)
        #expect(fixture.entries(.tokenNotCurrent).count == 1)
        try fixture.push(#"{"aps":{"alert":"to the new token"}}"#)
        #expect(fixture.app.presentations.count == 1)
    }

    @Test(
        "REG-ROTATION (2, D): after an OS reinstall the app gets a new token at its next registration",
        arguments: [
            TokenRotation.osReinstall, .newDevice, .erase,
        ])
    func otherRotationsNeedARegistration(_ reason: TokenRotation) throws {
        let fixture = DeviceFixture.ready()
        let old = try #require(fixture.app.deviceTokenHex)
        fixture.device.rotateTokens(reason)
        #expect(!fixture.app.isRegisteredForRemoteNotifications)
        fixture.app.registerForRemoteNotifications()
        let new = try #require(fixture.app.deviceTokenHex)
        #expect(new != old)
    }

    @Test("REG-REINSTALL (2, U: a new token): a reinstalled app starts over with a new token and notDetermined")
    func reinstallGivesANewToken() throws {
        let fixture = DeviceFixture.ready()
        let old = try #require(fixture.app.deviceTokenHex)
        fixture.app.reinstall()
        #expect(fixture.app.notificationCenter.notificationSettings().authorizationStatus == .notDetermined)
        fixture.app.registerForRemoteNotifications()
        #expect(try #require(fixture.app.deviceTokenHex) != old)
        #expect(fixture.entries(.registrationReinstall).count == 1)
    }
}
