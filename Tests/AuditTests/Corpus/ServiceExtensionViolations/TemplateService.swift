import UserNotifications

// Xcode's template, as generated: when mutableCopy fails, nothing is delivered until the time runs out.
class TemplateService: UNNotificationServiceExtension {
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        self.contentHandler = contentHandler
        bestAttemptContent = (request.content.mutableCopy() as? UNMutableNotificationContent)
        if let bestAttemptContent = bestAttemptContent {
            bestAttemptContent.title = "\(bestAttemptContent.title) [modified]"
            contentHandler(bestAttemptContent)
        }
    }  // expect: AUDIT-NSE-HANDLER

    override func serviceExtensionTimeWillExpire() {  // expect: AUDIT-NSE-EXPIRE
        bestAttemptContent?.title = "expired"
    }
}
