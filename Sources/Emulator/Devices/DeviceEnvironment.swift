/// Which APNs a simulated device's token belongs to. A token pushed through the other one is
/// BadDeviceToken (in strict mode).
public enum DeviceEnvironment: String, Sendable, CaseIterable, CustomStringConvertible {
    case sandbox
    case production

    /// Parses `sandbox` or `production`; the error names `field` and the allowed values.
    public init(parsing text: String, field: String = "environment") throws(DeviceError) {
        guard let environment = DeviceEnvironment(rawValue: text) else {
            throw .invalid(field: field, rule: "is \"\(text)\"; use \"sandbox\" or \"production\"")
        }
        self = environment
    }

    public var description: String { rawValue }
}

/// What kind of token routes to a simulated device.
public enum DeviceTokenKind: String, Sendable, CaseIterable {
    /// The device's own token, from registering for remote notifications.
    case device
    /// A Live Activity's update token (`liveactivity` pushes to a running activity).
    case liveActivity = "live-activity"
    /// A push-to-start token (`liveactivity` pushes that start an activity).
    case pushToStart = "push-to-start"
}

/// Why a device operation was refused: an HTTP status and a reason that names the field or token.
public struct DeviceError: Error, Sendable, Equatable, CustomStringConvertible {
    public let status: Int
    public let reason: String

    public init(status: Int, reason: String) {
        self.status = status
        self.reason = reason
    }

    /// 400: `field` broke `rule` ("topic: is empty; ...").
    public static func invalid(field: String, rule: String) -> DeviceError {
        DeviceError(status: 400, reason: "\(field): \(rule)")
    }

    /// 404: no registered device has this token (never registered, or unregistered).
    public static func unknownDevice(_ token: String) -> DeviceError {
        DeviceError(status: 404, reason: "token: no registered device has token \(token)")
    }

    public var description: String { reason }
}
