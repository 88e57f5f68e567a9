import APNs
import DeviceModel
import Testing

/// A device on a virtual clock with one app installed, and helpers to push to it.
struct DeviceFixture {
    let clock = VirtualClock()
    let device: Device
    let app: InstalledApp

    static let bundleID = "com.example.app"

    init(
        _ configuration: AppConfiguration = AppConfiguration(bundleID: DeviceFixture.bundleID),
        user: ScriptedUser = ScriptedUser(), deviceConfiguration: DeviceConfiguration = DeviceConfiguration()
    ) {
        device = Device(clock: clock, user: user, configuration: deviceConfiguration)
        app = device.install(configuration)
    }

    /// Launched, authorized for `options`, registered, and in the background.
    static func ready(
        _ configuration: AppConfiguration = AppConfiguration(bundleID: DeviceFixture.bundleID),
        options: AuthorizationOptions = [.alert, .sound, .badge],
        deviceConfiguration: DeviceConfiguration = DeviceConfiguration()
    ) -> DeviceFixture {
        let fixture = DeviceFixture(configuration, deviceConfiguration: deviceConfiguration)
        fixture.app.launch()
        fixture.app.notificationCenter.requestAuthorization(options: options)
        fixture.app.registerForRemoteNotifications()
        fixture.app.moveToBackground()
        return fixture
    }

    var token: DeviceToken {
        get throws {
            let hex = try #require(app.deviceTokenHex, "the app registered")
            return try DeviceToken(hex: hex)
        }
    }

    /// Pushes a JSON payload to the app's token.
    func push(
        _ json: String, pushType: PushType = .alert, collapseID: String? = "n1"
    ) throws {
        device.receive(
            RemotePush(token: try token, pushType: pushType, collapseID: collapseID, payload: Array(json.utf8)))
    }

    /// The rule ids on the timeline, in order, for one app (device-wide entries included).
    var ruleIDs: [String] { device.timeline.entries.map(\.rule.id) }

    func entries(_ rule: DeviceRule) -> [TimelineEntry] { device.timeline.entries(decidedBy: rule) }

    var lastPresentation: Presentation? { app.presentations.last }
}
