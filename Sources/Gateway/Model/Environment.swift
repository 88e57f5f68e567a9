import APNs
import Keys

/// The APNs environment a token belongs to: a token issued by the sandbox is refused by production
/// (`BadDeviceToken`) and the other way around. The wire names are the gateway API's.
public enum Environment: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `api.sandbox.push.apple.com`: builds signed for development.
    case sandbox
    /// `api.push.apple.com`: App Store, TestFlight and ad-hoc builds.
    case production

    /// Parses a wire name; the error names the field and the values allowed.
    public init(field: String = "environment", _ text: String) throws(FieldError) {
        guard let environment = Environment(rawValue: text) else {
            throw FieldError(field: field, message: "'\(text)' is not an environment; use sandbox or production")
        }
        self = environment
    }

    /// The other environment, the usual cause of `BadDeviceToken`.
    public var other: Environment { self == .sandbox ? .production : .sandbox }

    /// The environment as a push certificate marks it.
    public var certificateEnvironment: APNsEnvironment { self == .sandbox ? .development : .production }

    public var description: String { rawValue }
}
