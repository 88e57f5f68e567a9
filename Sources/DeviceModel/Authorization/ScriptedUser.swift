/// The user's side of a run: how they answer prompts. The model never waits for a person; every prompt
/// is answered at once from this script.
public struct ScriptedUser: Sendable, Hashable {
    /// The answer to the notification permission prompt.
    public var authorizationAnswer: PromptAnswer
    /// The answer to the separate critical alerts prompt.
    public var criticalAlertAnswer: PromptAnswer

    public init(authorizationAnswer: PromptAnswer = .allow, criticalAlertAnswer: PromptAnswer = .allow) {
        self.authorizationAnswer = authorizationAnswer
        self.criticalAlertAnswer = criticalAlertAnswer
    }
}

/// A button on a system prompt.
public enum PromptAnswer: String, Sendable, Hashable {
    case allow = "Allow"
    case dontAllow = "Don't Allow"
}

/// What the user picks on a provisional notification (only the first one offers the buttons).
public enum ProvisionalChoice: String, Sendable, Hashable {
    /// Keep, then Deliver Immediately.
    case deliverImmediately = "Keep: Deliver Immediately"
    /// Keep, then Deliver in Scheduled Summary (offered only while Scheduled Summary is on).
    case deliverInScheduledSummary = "Keep: Deliver in Scheduled Summary"
    /// Turn Off, then the confirmation.
    case turnOff = "Turn Off"
}
