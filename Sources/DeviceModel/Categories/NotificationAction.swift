/// `UNNotificationActionOptions`. Raw values are Apple's.
public struct NotificationActionOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The device must be unlocked first.
    public static let authenticationRequired = NotificationActionOptions(rawValue: 1 << 0)
    /// Shown in red; nothing else changes.
    public static let destructive = NotificationActionOptions(rawValue: 1 << 1)
    /// Brings the app to the foreground (unlocking if needed); without it the app runs in the background.
    public static let foreground = NotificationActionOptions(rawValue: 1 << 2)
}

/// `UNNotificationAction`: a button on a notification.
///
/// A class, as Apple's is, so that `TextInputNotificationAction` is one too and a category lists both.
// SAFETY: every stored property, here and in the one subclass, is a `let` of a Sendable type, and the class
// is `public`, not `open`: no other module can add a subclass with mutable state.
public class NotificationAction: Hashable, CustomStringConvertible, @unchecked Sendable {
    public let identifier: String
    public let title: String
    public let options: NotificationActionOptions

    public init(identifier: String, title: String, options: NotificationActionOptions = []) {
        self.identifier = identifier
        self.title = title
        self.options = options
    }

    public static func == (lhs: NotificationAction, rhs: NotificationAction) -> Bool {
        lhs.identifier == rhs.identifier && lhs.title == rhs.title && lhs.options == rhs.options
            && (lhs as? TextInputNotificationAction)?.textInputButtonTitle
                == (rhs as? TextInputNotificationAction)?.textInputButtonTitle
            && (lhs as? TextInputNotificationAction)?.textInputPlaceholder
                == (rhs as? TextInputNotificationAction)?.textInputPlaceholder
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
        hasher.combine(title)
    }

    public var description: String { "\"\(title)\" (\(identifier))" }
}

/// `UNTextInputNotificationAction`: a button that asks the user for text.
// SAFETY: as NotificationAction: only `let`s of Sendable types.
public final class TextInputNotificationAction: NotificationAction, @unchecked Sendable {
    public let textInputButtonTitle: String
    public let textInputPlaceholder: String

    public init(
        identifier: String, title: String, options: NotificationActionOptions = [], textInputButtonTitle: String,
        textInputPlaceholder: String
    ) {
        self.textInputButtonTitle = textInputButtonTitle
        self.textInputPlaceholder = textInputPlaceholder
        super.init(identifier: identifier, title: title, options: options)
    }
}
