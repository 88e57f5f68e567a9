import APNs
import DeviceModel
import Testing

/// A device dropped while a service extension or a fetch completion handler still has its 30 s to
/// run is freed with its apps: the pending deadline (held by the device's scheduled events) must not
/// keep them alive. LeakSanitizer found both kept forever when the session held its app strongly.
@Suite(.timeLimit(.minutes(1)))
struct SessionReleaseTests {
    /// Keeps the handler the way an extension that has not answered yet does.
    final class WaitingExtension: NotificationServiceExtension {
        var handler: ((NotificationContent) -> Void)?
        func didReceive(
            _ request: NotificationRequest, withContentHandler contentHandler: @escaping (NotificationContent) -> Void
        ) {
            handler = contentHandler
        }
        func serviceExtensionTimeWillExpire() {}
    }

    @Test func aDeviceWithAServiceExtensionStillRunningIsFreed() throws {
        weak var app: InstalledApp?
        weak var device: Device?
        do {
            let fixture = DeviceFixture.ready()
            fixture.app.serviceExtension = WaitingExtension()
            try fixture.push(#"{"aps":{"alert":{"title":"Hi","body":"(encrypted)"},"mutable-content":1}}"#)
            #expect(!fixture.entries(.serviceExtensionRuns).isEmpty, "the extension runs, its deadline pending")
            app = fixture.app
            device = fixture.device
        }
        #expect(app == nil && device == nil)
    }

    @Test func aDeviceWithAFetchHandlerStillDueIsFreed() throws {
        weak var app: InstalledApp?
        weak var device: Device?
        var kept: [(BackgroundFetchResult) -> Void] = []
        do {
            let fixture = DeviceFixture.ready(
                AppConfiguration(bundleID: DeviceFixture.bundleID, backgroundModes: [.remoteNotification]))
            fixture.app.delegate.didReceiveRemoteNotificationWithFetchHandler = { _, handler in kept.append(handler) }
            try fixture.push(#"{"aps":{"content-available":1}}"#, pushType: .background)
            #expect(kept.count == 1, "the app was woken, its handler due in 30 s")
            app = fixture.app
            device = fixture.device
            fixture.app.delegate.didReceiveRemoteNotificationWithFetchHandler = nil
        }
        #expect(app == nil && device == nil)
        // The handler outlives its app here: calling it now does nothing (and does not crash).
        kept.first?(.newData)
    }
}
