import APNs

/// `UNTimeIntervalNotificationTrigger`: fires a number of seconds after the request is added.
public struct TimeIntervalTrigger: Sendable, Hashable {
    public let timeInterval: Double
    public let repeats: Bool

    /// iOS raises an exception for an interval of 0 or less, or under 60 seconds when repeating; the model
    /// throws an error naming the field instead.
    public init(timeInterval: Double, repeats: Bool) throws(FieldError) {
        guard timeInterval.isFinite, timeInterval > 0 else {
            throw FieldError(field: "timeInterval", message: "is \(timeInterval); it must be greater than 0")
        }
        guard !repeats || timeInterval >= Self.minimumRepeatingInterval else {
            let minimum = Int(Self.minimumRepeatingInterval)
            throw FieldError(
                field: "timeInterval",
                message: "is \(timeInterval); a repeating trigger needs at least \(minimum) seconds")
        }
        self.timeInterval = timeInterval
        self.repeats = repeats
    }

    public static let minimumRepeatingInterval: Double = 60
}
