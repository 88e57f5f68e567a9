import UserNotifications

final class MediaService: UNNotificationServiceExtension {  // expect: AUDIT-NSE-EXPIRE
    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        let content = request.content.mutableCopy() as! UNMutableNotificationContent
        guard let url = URL(string: content.userInfo["media"] as? String ?? "") else { return }  // expect: AUDIT-NSE-HANDLER
        URLSession.shared.downloadTask(with: url) { location, _, error in
            if let error {
                content.subtitle = error.localizedDescription
                contentHandler(content)
            }
            guard let location else {
                return  // expect: AUDIT-NSE-HANDLER
            }
            if let attachment = try? UNNotificationAttachment(identifier: "media", url: location) {
                content.attachments = [attachment]
            }
            contentHandler(content)  // expect: AUDIT-NSE-HANDLER
        }.resume()
    }
}
