import UserNotifications

final class NotificationHandler: NSObject, UNUserNotificationCenterDelegate {  // expect: AUDIT-WILL-PRESENT
    static let shared = NotificationHandler()

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping () -> Void
    ) {
        guard response.actionIdentifier == UNNotificationDefaultActionIdentifier else {
            return  // expect: AUDIT-DELEGATE-HANDLER
        }
        Router.shared.open(response.notification.request.content.userInfo)
        completionHandler()
    }
}
