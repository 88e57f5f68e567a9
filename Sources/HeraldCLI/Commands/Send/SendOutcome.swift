import APNs
import APNsClient

/// A send's failures split the way a user acts on them: rejections are APNs's answers (the
/// notification reached APNs; its reason says what to change), the rest are Herald's own (no answer
/// came: a connection, a timeout, a line refused before sending).
struct SendOutcome {
    /// Failures by APNs reason, most first.
    var byReason: [(String, Int)] = []
    /// Failures by Herald's own category (`transport`, `timeout`, ...), most first.
    var byHeraldCategory: [(String, Int)] = []

    var rejected: Int { byReason.reduce(0) { $0 + $1.1 } }
    var notSent: Int { byHeraldCategory.reduce(0) { $0 + $1.1 } }
    /// Notifications APNs answered: accepted or rejected.
    let reached: Int

    init(_ metrics: MetricsSnapshot) {
        for (label, count) in metrics.failedByReason.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
            if Self.heraldCategories[label] != nil {
                byHeraldCategory.append((label, count))
            } else {
                byReason.append((label, count))
            }
        }
        reached = metrics.succeeded + byReason.reduce(0) { $0 + $1.1 }
    }

    /// Herald's own failure categories (APNsClient's metrics labels, and bulk's refused lines).
    static let heraldCategories: [String: String] = [
        "transport": "no answer: the connection failed or broke (the result lines say why)",
        "timeout": "no answer within --timeout; the notification may have been delivered",
        "invalid": "refused by Herald before sending (the result lines say why)",
        "configuration": "not sent: the credentials or the setup are wrong (the result lines say why)",
        "shutdown": "not sent: the client shut down first",
        "invalid request line": "lines of --requests refused before sending (standard error names each line)",
    ]

    /// What to check, for the reasons whose cause is usually on the sender's side.
    static let hints: [String: String] = [
        "BadDeviceToken": "probably a token of the other environment (sandbox vs production): try the other one",
        "DeviceTokenNotForTopic": "the token belongs to another app: check --topic",
        "Unregistered": "the app was removed or its notifications turned off: stop sending to the token",
        "MissingTopic": "give --topic, the app's bundle id",
        "TopicDisallowed": "the key or certificate may not push to this topic: check --topic",
        "InvalidProviderToken": "check --key-id, --team-id and that the key is enabled for APNs",
        "ExpiredProviderToken": "the machine's clock may be off: provider tokens are checked against Apple's",
    ]

    /// Apple's one-line meaning of `reason`, and what to check when there is a usual cause.
    static func explain(_ reason: String) -> String {
        let meaning = Reason(reason).info?.summary ?? "a reason Herald does not know yet"
        guard let hint = hints[reason] else { return meaning }
        return meaning + " " + hint[hint.startIndex].uppercased() + hint.dropFirst() + "."
    }

    static func explain(category: String) -> String {
        heraldCategories[category] ?? category
    }
}
