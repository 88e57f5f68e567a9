/// `UNNotificationServiceExtension`: the app's code that may change a remote notification's content before
/// it is shown.
///
/// The model calls `didReceive` when the extension may run; the extension hands content back through the
/// handler, at once or later (after the test advances the clock). After 30 seconds on the device's clock the
/// model calls `serviceExtensionTimeWillExpire()`; a handler call made inside it still counts, any later one
/// does not. Only the first call of the handler counts.
public protocol NotificationServiceExtension: AnyObject {
    /// `didReceive(_:withContentHandler:)`.
    func didReceive(
        _ request: NotificationRequest, withContentHandler contentHandler: @escaping (NotificationContent) -> Void)
    /// Called when the 30 seconds are up and the handler has not been called.
    func serviceExtensionTimeWillExpire()
}

extension NotificationServiceExtension {
    /// Extensions that do not implement it call nothing: the original content is shown.
    public func serviceExtensionTimeWillExpire() {}
}
