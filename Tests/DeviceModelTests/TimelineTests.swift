import APNs
import DeviceModel
import Testing

/// The timeline's format, as docs/DEVICE.md shows it.
@Suite(.timeLimit(.minutes(1)))
struct TimelineTests {
    final class SilentExtension: NotificationServiceExtension {
        func didReceive(
            _ request: NotificationRequest, withContentHandler contentHandler: @escaping (NotificationContent) -> Void
        ) {}
    }

    @Test("the timeline of docs/DEVICE.md's example, line for line")
    func documentedExample() throws {
        let clock = VirtualClock()
        let device = Device(clock: clock, user: ScriptedUser(authorizationAnswer: .allow))
        let app = device.install(AppConfiguration(bundleID: "com.example.app"))
        app.serviceExtension = SilentExtension()  // never calls its content handler
        app.launch()
        app.notificationCenter.requestAuthorization(options: [.alert, .sound, .badge])
        app.registerForRemoteNotifications()
        app.moveToBackground()
        let token = try DeviceToken(hex: app.deviceTokenHex ?? "")
        let payload = #"{"aps":{"alert":{"title":"Order","body":"Shipped"},"badge":1,"mutable-content":1}}"#
        device.receive(RemotePush(token: token, collapseID: "order-1", payload: Array(payload.utf8)))
        device.advance(by: 30)

        let expected = """
            2026-01-01T09:00:00Z com.example.app authorization [AUTH-INITIAL 1a D]: installed: status notDetermined
            2026-01-01T09:00:00Z com.example.app authorization [AUTH-PROMPT 1a D]: prompt for [badge, sound, alert]: the user answered Allow, status authorized
            2026-01-01T09:00:00Z com.example.app registration [REG-INDEPENDENT 2 D]: registered: token \(token.hex) (development), authorization authorized
            2026-01-01T09:00:00Z com.example.app received [CLASSIFY-ALERT 3.3 D] id=order-1: alert push classified alert, the identifier from apns-collapse-id
            2026-01-01T09:00:00Z com.example.app service-extension [NSE-RUNS 3.4 D] id=order-1: the service extension runs; its 30 seconds end at 2026-01-01T09:00:30Z
            2026-01-01T09:00:30Z com.example.app service-extension [NSE-TIME-LIMIT 3.4 D] id=order-1: 30 seconds passed without the content handler: serviceExtensionTimeWillExpire called
            2026-01-01T09:00:30Z com.example.app service-extension [NSE-TIME-LIMIT 3.4 D] id=order-1: the content handler was never called: the original content is shown
            2026-01-01T09:00:30Z com.example.app presented [PRESENT-SETTINGS 1c D] id=order-1: banner, list, badge 1 "Order" / "Shipped"
            """
        #expect(device.timeline.text == expected)
    }
}
