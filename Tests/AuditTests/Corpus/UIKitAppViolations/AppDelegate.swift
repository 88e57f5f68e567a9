import UIKit
import UserNotifications

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    private var lastToken: String?

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .sound]) { granted, _ in
            UNUserNotificationCenter.current().delegate = NotificationHandler.shared  // expect: AUDIT-DELEGATE-LATE
            guard granted else { return }
            DispatchQueue.main.async {
                application.registerForRemoteNotifications()  // expect: AUDIT-REGISTER-AUTHORIZATION
            }
        }
        return true
    }

    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        guard let token = String(data: deviceToken, encoding: .utf8) else { return }  // expect: AUDIT-TOKEN-STRING, AUDIT-TOKEN-UPLOAD
        guard token != lastToken else { return }  // expect: AUDIT-TOKEN-UPLOAD
        lastToken = token
        Backend.shared.upload(deviceToken: token)
    }

    func application(  // expect: AUDIT-BACKGROUND-MODE
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        guard let messageID = userInfo["message-id"] as? String else { return }  // expect: AUDIT-FETCH-HANDLER
        Inbox.shared.fetch(messageID) { error in
            if error != nil {
                completionHandler(.failed)
            }
            completionHandler(.newData)  // expect: AUDIT-FETCH-HANDLER
        }
    }
}

final class LegacyAppDelegate: NSObject, UIApplicationDelegate {
    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        let described = deviceToken.description  // expect: AUDIT-TOKEN-STRING
        Backend.shared.upload(deviceToken: described)
        Backend.shared.log("token \(deviceToken)")  // expect: AUDIT-TOKEN-STRING
    }
}
