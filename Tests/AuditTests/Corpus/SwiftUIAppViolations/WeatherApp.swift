import SwiftUI
import UserNotifications

@main
struct WeatherApp: App {
    @UIApplicationDelegateAdaptor(AppDelegate.self) private var appDelegate

    var body: some Scene {
        WindowGroup {
            ForecastView()
                .onAppear {
                    UNUserNotificationCenter.current().delegate = AlertPresenter.shared  // expect: AUDIT-DELEGATE-LATE
                }
        }
    }
}

final class AppDelegate: NSObject, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
    ) -> Bool {
        UNUserNotificationCenter.current().getNotificationSettings { settings in
            guard settings.authorizationStatus == .authorized else { return }
            DispatchQueue.main.async { application.registerForRemoteNotifications() }  // expect: AUDIT-REGISTER-AUTHORIZATION
        }
        return true
    }

    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        WeatherAPI.shared.subscribe(token: "\(deviceToken)")  // expect: AUDIT-TOKEN-STRING
    }
}

final class AlertPresenter: NSObject, UNUserNotificationCenterDelegate {  // expect: AUDIT-DID-RECEIVE
    static let shared = AlertPresenter()

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
    ) {
        #if os(iOS)
        for _ in notification.request.content.attachments {
            completionHandler([.banner])  // expect: AUDIT-DELEGATE-HANDLER
        }
        #endif
    }  // expect: AUDIT-DELEGATE-HANDLER
}
