/// A page of an app's activity update tokens, by activity id; pass `nextCursor` back for the next one.
public struct ActivityTokenPage: Sendable, Hashable {
    public var activities: [ActivityToken]
    /// The last activity id of the page; nil on the last page.
    public var nextCursor: String?

    public init(activities: [ActivityToken], nextCursor: String?) {
        self.activities = activities
        self.nextCursor = nextCursor
    }
}

/// A page of an app's push-to-start tokens, in registration order; pass `nextCursor` back for the next one.
public struct PushToStartTokenPage: Sendable, Hashable {
    public var tokens: [PushToStartToken]
    /// nil on the last page.
    public var nextCursor: Int?

    public init(tokens: [PushToStartToken], nextCursor: Int?) {
        self.tokens = tokens
        self.nextCursor = nextCursor
    }
}
