/// `UNNotificationPresentationOptions`: what `willPresent` lets a foreground notification do. Raw values
/// are Apple's.
public struct PresentationOptions: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let badge = PresentationOptions(rawValue: 1 << 0)
    public static let sound = PresentationOptions(rawValue: 1 << 1)
    /// Deprecated in iOS 14: banner and list together.
    public static let alert = PresentationOptions(rawValue: 1 << 2)
    /// In Notification Center.
    public static let list = PresentationOptions(rawValue: 1 << 3)
    public static let banner = PresentationOptions(rawValue: 1 << 4)

    /// With `.alert` spelled out as `.banner` and `.list`.
    var expanded: PresentationOptions {
        contains(.alert) ? subtracting(.alert).union([.banner, .list]) : self
    }

    /// `[banner, list, sound]`.
    public var description: String {
        let names: [(PresentationOptions, String)] = [
            (.banner, "banner"), (.list, "list"), (.alert, "alert"), (.sound, "sound"), (.badge, "badge"),
        ]
        return "[" + names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
    }
}
