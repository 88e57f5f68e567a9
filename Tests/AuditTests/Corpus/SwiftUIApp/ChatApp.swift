import SwiftUI
import UserNotifications

@main
struct ChatApp: App {
    @UIApplicationDelegateAdaptor(AppDelegate.self) private var appDelegate

    init() {
        UNUserNotificationCenter.current().delegate = NotificationRouter.shared
        let mute = UNNotificationAction(identifier: "mute", title: "Mute", options: [])
        let thread = UNNotificationCategory(identifier: "thread", actions: [mute], intentIdentifiers: [], options: [])
        UNUserNotificationCenter.current().setNotificationCategories([thread])
    }

    var body: some Scene {
        WindowGroup {
            ContentView()
                .task {
                    let granted = try? await UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .badge])
                    Analytics.record("notifications", granted == true)
                }
        }
    }
}

final class AppDelegate: NSObject, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
    ) -> Bool {
        application.registerForRemoteNotifications()
        return true
    }

    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        let hex = deviceToken.reduce(into: "") { $0 += String(format: "%02X", $1) }
        Task {
            try? await TokenService.shared.upload(hex)
        }
    }
}
