import UIKit
import UserNotifications

final class InboxViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        let archive = UNNotificationAction(identifier: "archive", title: "Archive", options: [.destructive])
        let message = UNNotificationCategory(identifier: "message", actions: [archive], intentIdentifiers: [], options: [])
        UNUserNotificationCenter.current().setNotificationCategories([message])  // expect: AUDIT-CATEGORIES
    }
}
