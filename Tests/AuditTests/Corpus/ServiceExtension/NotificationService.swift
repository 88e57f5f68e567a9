import UserNotifications

final class NotificationService: UNNotificationServiceExtension {
    private var contentHandler: ((UNNotificationContent) -> Void)?
    private var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        self.contentHandler = contentHandler
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else {
            contentHandler(request.content)
            return
        }
        bestAttemptContent = content
        guard let address = content.userInfo["image-url"] as? String, let url = URL(string: address) else {
            contentHandler(content)
            return
        }
        URLSession.shared.downloadTask(with: url) { location, response, error in
            defer { contentHandler(content) }
            guard let location, error == nil else { return }
            let destination = FileManager.default.temporaryDirectory.appendingPathComponent(url.lastPathComponent)
            do {
                try FileManager.default.moveItem(at: location, to: destination)
                let attachment = try UNNotificationAttachment(identifier: "image", url: destination)
                content.attachments = [attachment]
            } catch {
                content.body += " (image unavailable)"
            }
        }.resume()
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler, let bestAttemptContent {
            contentHandler(bestAttemptContent)
        }
    }
}
