import UIKit
import UserNotifications

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    private let api = PushRegistrationAPI()

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let center = UNUserNotificationCenter.current()
        NotificationCoordinator.shared.install()
        NotificationCategories.register(on: center)
        center.requestAuthorization(options: [.alert, .sound, .badge]) { granted, error in
            if let error {
                print("authorization failed: \(error)")
            }
            print("notifications authorized: \(granted)")
        }
        application.registerForRemoteNotifications()
        return true
    }

    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        let token = deviceToken.map { String(format: "%02x", $0) }.joined()
        #if DEBUG
        print("APNs token: \(token)")
        #endif
        api.register(token: token, environment: .production)
    }

    func application(_ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: Error) {
        print("registration failed: \(error.localizedDescription)")
    }

    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        guard let feed = userInfo["feed"] as? String else {
            completionHandler(.noData)
            return
        }
        SyncEngine.shared.refresh(feed: feed) { result in
            switch result {
            case .success(let changed):
                completionHandler(changed ? .newData : .noData)
            case .failure:
                completionHandler(.failed)
            }
        }
    }
}
