/// A notification service extension whose behaviour is scripted, for tests and device profiles.
///
/// Lifecycle: holds its device weakly (the device's app holds the extension).
public final class ScriptedServiceExtension: NotificationServiceExtension {
    /// What the extension does with each request.
    public enum Behaviour: Sendable, Hashable {
        /// Hands the original content back at once.
        case passThrough
        /// Hands `content` back `after` seconds on the device's clock (more than 30 is too late).
        case rewrite(NotificationContent, after: Double)
        /// Calls nothing until `serviceExtensionTimeWillExpire`, then hands `content` back.
        case rewriteOnExpiry(NotificationContent)
        /// Never calls the content handler.
        case neverCall
        /// Hands `content` back twice.
        case callTwice(NotificationContent)
        /// Hands back empty content (suppresses the notification with the filtering entitlement).
        case suppress
    }

    public var behaviour: Behaviour
    private weak var device: Device?
    private var waiting: ((NotificationContent) -> Void)?

    public init(_ behaviour: Behaviour, device: Device) {
        self.behaviour = behaviour
        self.device = device
    }

    public func didReceive(
        _ request: NotificationRequest, withContentHandler contentHandler: @escaping (NotificationContent) -> Void
    ) {
        switch behaviour {
        case .passThrough:
            contentHandler(request.content)
        case .rewrite(let content, let delay) where delay > 0:
            device?.schedule(after: delay) { contentHandler(content) }
        case .rewrite(let content, _):
            contentHandler(content)
        case .rewriteOnExpiry:
            waiting = contentHandler
        case .neverCall:
            break
        case .callTwice(let content):
            contentHandler(content)
            contentHandler(content)
        case .suppress:
            contentHandler(NotificationContent())
        }
    }

    public func serviceExtensionTimeWillExpire() {
        guard case .rewriteOnExpiry(let content) = behaviour, let handler = waiting else { return }
        waiting = nil
        handler(content)
    }
}
