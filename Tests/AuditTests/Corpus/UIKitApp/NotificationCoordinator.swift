import UserNotifications

final class NotificationCoordinator: NSObject, UNUserNotificationCenterDelegate {
    static let shared = NotificationCoordinator()
    private let center = UNUserNotificationCenter.current()

    /// Called at launch: the coordinator becomes the center's delegate.
    func install() {
        center.delegate = self
    }

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
    ) {
        if notification.request.content.categoryIdentifier == "chat" {
            completionHandler([.banner, .list, .sound])
        } else {
            completionHandler([.list])
        }
    }

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping () -> Void
    ) {
        defer { completionHandler() }
        switch response.actionIdentifier {
        case "reply":
            guard let text = (response as? UNTextInputNotificationResponse)?.userText else { return }
            ChatStore.shared.send(text)
        case UNNotificationDefaultActionIdentifier:
            Router.shared.open(response.notification.request.content.userInfo)
        default:
            break
        }
    }
}

enum NotificationCategories {
    static func register(on center: UNUserNotificationCenter) {
        let reply = UNTextInputNotificationAction(identifier: "reply", title: "Reply", options: [])
        let chat = UNNotificationCategory(identifier: "chat", actions: [reply], intentIdentifiers: [], options: [])
        center.setNotificationCategories([chat])
    }
}
