import APNs
import Foundation
import Testing

/// A file that imports Foundation and APNs names Herald's notification without its module: it is
/// `APNsNotification`, and Foundation has no type of that name. (Outside the package the bare
/// `Notification` is Foundation's alone: Examples/UseFromSwift/Sources/UseFromSwift/FoundationNames.swift.)
@Suite(.timeLimit(.minutes(1)))
struct FoundationNameTests {
    @Test func apnsNotificationNeedsNoModuleNextToFoundation() throws {
        let notification = APNsNotification(
            token: try DeviceToken(hex: String(repeating: "ab", count: 32)), topic: try Topic("com.example.app"),
            payload: Payload.alert(body: "Hi"))
        let name = Foundation.Notification.Name("com.example.app.sent")
        #expect(notification.topic?.value == "com.example.app")
        #expect(name.rawValue == "com.example.app.sent")
    }
}
