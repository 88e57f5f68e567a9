import UserNotifications

final class DecryptingService: UNNotificationServiceExtension {
    private var handler: ((UNNotificationContent) -> Void)?
    private var original: UNNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        handler = contentHandler
        original = request.content
        KeyStore.shared.key(for: request.content.threadIdentifier) { result in
            switch result {
            case .success(let key):
                self.deliver(Decryptor(key: key).decrypt(request.content))
            case .failure:
                self.deliver(request.content)
            }
        }
    }

    private func deliver(_ content: UNNotificationContent) {
        handler?(content)
        handler = nil
    }

    override func serviceExtensionTimeWillExpire() {
        if let original {
            deliver(original)
        }
    }
}
