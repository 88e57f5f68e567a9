/// A notification's id: a UUID, lowercase.
public typealias NotificationID = String

/// Where a notification is in its life.
///
/// ```
///  created, send-at in the future          created (or send-at reached)
///             |                                      |
///             v              send-at <= now          v
///         scheduled -------------------------->  sending --(expanded, nothing pending)--> done
///             |                                      |
///             +-------------- cancel ----------------+------> cancelled
/// ```
public enum NotificationState: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case scheduled, sending, done, cancelled

    public var description: String { rawValue }
}

/// Deliveries of one notification by outcome. `failed` counts final failures only; a delivery
/// waiting for a retry is `pending`.
public struct NotificationCounts: Sendable, Hashable {
    public var succeeded = 0
    public var failed = 0
    public var pending = 0
    public var cancelled = 0
    /// Final failures by APNs reason (or the transport's, for a retry cap reached without one).
    public var byReason: [String: Int] = [:]

    public init(
        succeeded: Int = 0, failed: Int = 0, pending: Int = 0, cancelled: Int = 0, byReason: [String: Int] = [:]
    ) {
        self.succeeded = succeeded
        self.failed = failed
        self.pending = pending
        self.cancelled = cancelled
        self.byReason = byReason
    }
}

/// A notification as stored: the request, its state, and how far its recipients were expanded.
public struct StoredNotification: Sendable, Hashable {
    public var id: NotificationID
    public var request: NotificationRequest
    public var state: NotificationState
    public var createdAt: Int
    /// Delivery rows made so far.
    public var recipients: Int
    /// True once every recipient has its delivery row.
    public var expanded: Bool

    public init(
        id: NotificationID, request: NotificationRequest, state: NotificationState, createdAt: Int, recipients: Int,
        expanded: Bool
    ) {
        self.id = id
        self.request = request
        self.state = state
        self.createdAt = createdAt
        self.recipients = recipients
        self.expanded = expanded
    }
}

/// What `createNotification` did.
public struct NotificationCreation: Sendable, Hashable {
    public var notification: StoredNotification
    /// False when the idempotency key named an existing notification, which is returned unchanged.
    public var created: Bool
    /// The recipients it has, counted in the transaction that created it: what expansion will make
    /// rows for unless devices change first. For an existing notification: its delivery rows once
    /// expanded, counted again before.
    public var recipients: Int

    public init(notification: StoredNotification, created: Bool, recipients: Int) {
        self.notification = notification
        self.created = created
        self.recipients = recipients
    }
}

/// What one `expandNotification` call did.
public struct ExpansionProgress: Sendable, Hashable {
    /// Delivery rows made by this call.
    public var inserted: Int
    /// Chunks (transactions) this call committed.
    public var chunks: Int
    /// Delivery rows of the notification in all.
    public var recipients: Int
    /// Every recipient has its row (or the notification is not sending: nothing to do).
    public var finished: Bool

    public init(inserted: Int, chunks: Int, recipients: Int, finished: Bool) {
        self.inserted = inserted
        self.chunks = chunks
        self.recipients = recipients
        self.finished = finished
    }
}

extension ExpansionProgress {
    /// One chunk's result: rows made (nil when there was nothing to do), recipients in all, whether done.
    typealias Step = (inserted: Int?, recipients: Int, finished: Bool)

    /// Runs `chunk` (one transaction each) until the expansion is finished or `maximumChunks` ran;
    /// between chunks other tasks get the thread. Both stores expand this way.
    static func run(
        maximumChunks: Int, _ chunk: () async throws(GatewayStoreError) -> Step
    ) async throws(GatewayStoreError) -> ExpansionProgress {
        var progress = ExpansionProgress(inserted: 0, chunks: 0, recipients: 0, finished: false)
        while progress.chunks < maximumChunks {
            if progress.chunks > 0 { await Task.yield() }
            let step = try await chunk()
            progress.recipients = step.recipients
            guard let inserted = step.inserted else {
                progress.finished = true
                break
            }
            progress.inserted += inserted
            progress.chunks += 1
            if step.finished {
                progress.finished = true
                break
            }
        }
        return progress
    }
}

/// A page of an app's notifications, newest first (`NotificationStore.notifications(bundleID:before:limit:)`).
public struct NotificationPage: Sendable, Hashable {
    public var notifications: [StoredNotification]
    /// Pass as `before` for the next (older) page; nil on the last.
    public var nextCursor: Int?

    public init(notifications: [StoredNotification], nextCursor: Int?) {
        self.notifications = notifications
        self.nextCursor = nextCursor
    }
}
