import APNs

/// One notification to one recipient: the durable unit of work that workers claim.
///
/// ```
///            claim (lease: claimed-by, claimed-until; next-attempt-at = claimed-until)
///   pending <-----------------------------------------------------------+
///     |  \--- retryable outcome: attempts+1, next-attempt-at = now+backoff
///     |--- success ------------------------> succeeded
///     |--- final failure (4xx, retry cap) -> failed   (pruning rule applied to the token)
///     +--- cancel --------------------------> cancelled
/// ```
/// A lease that runs out (a worker died) leaves the row `pending` and due again; its `apnsID` was
/// fixed when the row was made, so a resend carries the same id.
public struct Delivery: Sendable, Hashable {
    public enum Status: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case pending, succeeded, failed, cancelled
        public var description: String { rawValue }
    }

    /// Which table the recipient came from, which decides the request's path and topic.
    public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case device, activity
        case pushToStart = "pushtostart"
        case channel
        public var description: String { rawValue }
    }

    /// The store's id for the row; increasing in creation order (the listing cursor).
    public var id: Int
    public var notificationID: NotificationID
    public var kind: Kind
    /// The token as lowercase hex, or the channel id for `.channel`.
    public var recipient: String
    public var environment: Environment
    public var apnsID: APNsID
    public var status: Status
    /// The last rejection's (or transport failure's) reason.
    public var reason: String?
    /// Outcomes recorded (a claim whose worker died is not one).
    public var attempts: Int
    public var nextAttemptAt: Int
    public var lastAttemptAt: Int?
    public var apnsUniqueID: String?
    public var claimedBy: String?
    public var claimedUntil: Int?

    public init(
        id: Int, notificationID: NotificationID, kind: Kind, recipient: String, environment: Environment,
        apnsID: APNsID,
        status: Status = .pending, reason: String? = nil, attempts: Int = 0, nextAttemptAt: Int,
        lastAttemptAt: Int? = nil,
        apnsUniqueID: String? = nil, claimedBy: String? = nil, claimedUntil: Int? = nil
    ) {
        self.id = id
        self.notificationID = notificationID
        self.kind = kind
        self.recipient = recipient
        self.environment = environment
        self.apnsID = apnsID
        self.status = status
        self.reason = reason
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastAttemptAt = lastAttemptAt
        self.apnsUniqueID = apnsUniqueID
        self.claimedBy = claimedBy
        self.claimedUntil = claimedUntil
    }
}

/// A batch of claimed deliveries with the notifications they belong to (each once, however many
/// of its deliveries are in the batch).
public struct DeliveryClaim: Sendable, Hashable {
    public var deliveries: [Delivery]
    public var notifications: [NotificationID: StoredNotification]

    public init(deliveries: [Delivery], notifications: [NotificationID: StoredNotification]) {
        self.deliveries = deliveries
        self.notifications = notifications
    }
}

/// What one `expandAndClaim` call did: the expansion's progress, and the rows it made that it
/// also claimed (none when the store claims nothing at expansion: they are then claimed as usual).
public struct ClaimedExpansion: Sendable, Hashable {
    public var progress: ExpansionProgress
    public var claim: DeliveryClaim

    public init(progress: ExpansionProgress, claim: DeliveryClaim) {
        self.progress = progress
        self.claim = claim
    }

    /// One chunk's result as the stores report it: `made` the rows claimed, `notification` theirs
    /// (looked up only when rows were made).
    init(step: ExpansionProgress.Step, made: [Delivery], notification: StoredNotification?) {
        progress = ExpansionProgress(
            inserted: step.inserted ?? 0, chunks: step.inserted == nil ? 0 : 1, recipients: step.recipients,
            finished: step.finished)
        var notifications: [NotificationID: StoredNotification] = [:]
        if let notification, !made.isEmpty { notifications[notification.id] = notification }
        claim = DeliveryClaim(deliveries: made, notifications: notifications)
    }
}

/// What a worker learned from one send.
public struct DeliveryOutcome: Sendable, Hashable {
    public enum Result: Sendable, Hashable {
        /// APNs accepted it (200), with the sandbox's `apns-unique-id` when given.
        case succeeded(apnsUniqueID: String?)
        /// Worth another attempt (429, 5xx, a transport failure before any answer); `reason` names it.
        case retryable(reason: String)
        /// Final: a 4xx, or a retry cap reached. `timestamp` is APNs's 410 timestamp (ms), if any.
        case failed(reason: Reason, timestamp: Int?)
    }

    public var deliveryID: Int
    public var result: Result
    /// The delivery as it was claimed, for a store that keeps no row for a claimed delivery until
    /// its outcome (SQLite's chunks): the row is made from it. Nil: the store has the row.
    public var delivery: Delivery?

    public init(deliveryID: Int, result: Result) {
        self.deliveryID = deliveryID
        self.result = result
        self.delivery = nil
    }

    /// The outcome of `delivery`, carrying it for a store that records it as a new row.
    public init(_ delivery: Delivery, result: Result) {
        self.deliveryID = delivery.id
        self.result = result
        self.delivery = delivery
    }
}

/// A page of a notification's deliveries; pass `nextCursor` back for the next one.
public struct DeliveryPage: Sendable, Hashable {
    public var deliveries: [Delivery]
    /// nil on the last page.
    public var nextCursor: Int?

    public init(deliveries: [Delivery], nextCursor: Int?) {
        self.deliveries = deliveries
        self.nextCursor = nextCursor
    }
}
