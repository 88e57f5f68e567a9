import UIKit
import UserNotifications

final class ReminderDelegate: NSObject, UNUserNotificationCenterDelegate {  // expect: AUDIT-DELEGATE-UNSET
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
    ) {
        completionHandler([.banner, .list])
    }

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping () -> Void
    ) {
        completionHandler()
    }
}

final class ReminderScheduler {
    func schedule(_ reminder: Reminder) {
        let snooze = UNNotificationAction(identifier: "snooze", title: "Snooze", options: [])
        _ = UNNotificationCategory(identifier: "reminder", actions: [snooze], intentIdentifiers: [], options: [])  // expect: AUDIT-CATEGORIES
        let content = UNMutableNotificationContent()
        content.title = reminder.title
        content.categoryIdentifier = "reminder"
        UNUserNotificationCenter.current().add(UNNotificationRequest(identifier: reminder.id, content: content, trigger: nil))
    }
}
