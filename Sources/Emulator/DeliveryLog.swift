import APNs
import HTTP2
import Synchronization

/// One request the emulator answered.
public struct Delivery: Sendable, Equatable {
    /// Milliseconds since 1970.
    public let receivedAt: Int
    public let token: String?
    public let topic: String?
    public let pushType: String?
    public let priority: Int?
    public let apnsID: String?
    public let uniqueID: String?
    public let status: Int
    public let reason: String?
    public let payload: [UInt8]
    /// The `apns-channel-id` of a broadcast; nil for device pushes.
    public var channel: String? = nil
    /// The injected fault that decided the answer (`respond`, `goaway`, `reset`, `disconnect`), if any;
    /// `status` is 0 when no response was sent.
    public var fault: String? = nil
    /// The request's `apns-collapse-id`, if it had one.
    public var collapseID: String? = nil
    /// The request's `apns-expiration` (UNIX seconds, 0: deliver now or never), if it had a valid one.
    public var expiration: Int? = nil

    /// A delivery as the emulator records it, or as a store reads it back.
    public init(
        receivedAt: Int, token: String?, topic: String?, pushType: String?, priority: Int?, apnsID: String?,
        uniqueID: String?, status: Int, reason: String?, payload: [UInt8], channel: String? = nil, fault: String? = nil,
        collapseID: String? = nil, expiration: Int? = nil
    ) {
        self.receivedAt = receivedAt
        self.token = token
        self.topic = topic
        self.pushType = pushType
        self.priority = priority
        self.apnsID = apnsID
        self.uniqueID = uniqueID
        self.status = status
        self.reason = reason
        self.payload = payload
        self.channel = channel
        self.fault = fault
        self.collapseID = collapseID
        self.expiration = expiration
    }
}

/// The emulator's record of every request, newest last, capped (the oldest entries go first), safe
/// to read while the emulator serves.
public final class DeliveryLog: Sendable {
    private struct Ring {
        /// The entries kept, encoded (see EncodedDeliveryRing).
        var entries: EncodedDeliveryRing
        var total = 0
        /// What ``counts`` reports (since this start, not cleared with the log): answers, by status
        /// in an array (no hashing per answer), by reason.
        var answered = 0
        var byStatus = [Int](repeating: 0, count: 600)
        var otherStatuses: [Int: Int] = [:]
        var byReason: [String: Int] = [:]
        var faults = 0
        /// What waits for the writer, if there is one (under this lock: one lock per answer).
        var pending: PendingDeliveries?
    }

    /// Answers since the emulator started, by status and by reason (not cleared with the log).
    public struct Counts: Sendable, Equatable {
        public var total = 0
        public var byStatus: [Int: Int] = [:]
        public var byReason: [String: Int] = [:]
        public var faults = 0
    }

    public let capacity: Int
    /// The entries and the tallies, under one lock (one lock operation per answer).
    private let ring: AnnotatedMutex<Ring>
    /// Writes new entries behind to the emulator's store, when it has one (see DeliveryLogWriter).
    let writer: DeliveryLogWriter?

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        ring = AnnotatedMutex(Ring(entries: EncodedDeliveryRing(capacity: capacity)))
        writer = nil
    }

    /// A log that starts with `entries` (oldest first) and `total`, as loaded from a store, and
    /// hands new entries to `writer`.
    init(capacity: Int, restoring entries: [Delivery], total: Int, writer: DeliveryLogWriter?) {
        self.capacity = max(1, capacity)
        self.writer = writer
        var kept = EncodedDeliveryRing(capacity: capacity)
        for entry in entries.suffix(self.capacity) { kept.append(DeliveryRecord(entry)) }
        ring = AnnotatedMutex(Ring(entries: kept, total: max(total, kept.count)))
        if let writer {
            ring.withLock { ring in ring.pending = writer.attach(self, after: &ring.entries) }
        }
    }

    func append(_ delivery: Delivery) {
        append(DeliveryRecord(delivery), reason: delivery.reason)
    }

    /// Appends `record`, whose reason is `reason` (given to spare making it from the record).
    func append(_ record: DeliveryRecord, reason: String?) {
        record.withFields { append($0, reason: reason) }
    }

    /// Appends the entry of `fields` (borrowed: encoded here, not kept), whose reason is `reason`.
    func append(_ fields: DeliveryFields, reason: String?) {
        let startWriter = ring.withLock { ring in
            if ring.byStatus.indices.contains(fields.status) {
                ring.byStatus[fields.status] += 1
            } else {
                ring.otherStatuses[fields.status, default: 0] += 1
            }
            if let reason { ring.byReason[reason, default: 0] += 1 }
            if fields.hasFault { ring.faults += 1 }
            ring.answered += 1
            ring.total += 1
            ring.entries.append(fields)
            // Inside the lock: the store sees the log's order. The writer gets these same rows.
            return ring.pending?.appended(to: ring.entries) ?? false
        }
        if startWriter { writer?.startNow() }
    }

    /// The entries kept, oldest first, optionally only those for `token`, with `apnsID` (a
    /// broadcast's request id) or to `channel`.
    public func entries(token: String? = nil, apnsID: String? = nil, channel: String? = nil) -> [Delivery] {
        entries(matching: DeliveryFilter(token: token, apnsID: apnsID, channel: channel))
    }

    /// The entries kept that match `filter`, oldest first (the newest `filter.limit` when it is set).
    public func entries(matching filter: DeliveryFilter) -> [Delivery] {
        // Decoded outside the lock: the rows' storage is never written again where they hold
        // records (a copy of the rows keeps it alive), so the loops go on recording meanwhile.
        let rows = ring.withLock { $0.entries }
        let matching = rows.records().map(\.delivery).filter(filter.matches)
        guard let limit = filter.limit, matching.count > limit else { return matching }
        return Array(matching.suffix(limit))
    }

    /// Entries a page examines at most (``page(matching:from:limit:)``): a sparse filter over a
    /// full log gives short pages rather than one long scan on an event loop.
    public static let pageScanLimit = 20_000

    /// One page of the log: the entries that matched, oldest first, and where the next page starts
    /// (nil: none of the kept entries after them is left to examine).
    public struct Page: Sendable, Equatable {
        public var entries: [Delivery]
        /// The number of the first entry the next page looks at.
        public var next: Int?
    }

    /// At most `limit` entries matching `filter` (whose own `limit` is not used), oldest first,
    /// from the entry numbered `start` on (nil: the oldest kept). Entries are numbered 1, 2, ... in
    /// the order recorded (``removeAll()`` starts again at 1); a number whose entry is no longer
    /// kept starts at the oldest kept. At most `scanLimit` entries are examined, and only one is
    /// decoded at a time: the time and memory a page takes are bounded whatever the log holds.
    public func page(matching filter: DeliveryFilter, from start: Int?, limit: Int, scanLimit: Int = pageScanLimit)
        -> Page
    {
        // Copies of the rows: their storage is never written again below a copy's end (see `entries`).
        let (rows, first) = ring.withLock { ring in (ring.entries.rows, ring.total - ring.entries.count + 1) }
        let start = max(start ?? first, first)
        var number = first
        var page = Page(entries: [], next: nil)
        var examined = 0
        for row in rows {
            guard number + row.count > start else {
                number += row.count  // wholly before the page: not decoded
                continue
            }
            row.forEachRecord { record in
                defer { number += 1 }
                if number < start { return true }
                if examined == scanLimit || page.entries.count == limit {
                    page.next = number
                    return false
                }
                examined += 1
                let delivery = record.delivery
                if filter.matches(delivery) { page.entries.append(delivery) }
                return true
            }
            if page.next != nil { break }
        }
        return page
    }

    /// Answers since the emulator started, kept or not.
    public var counts: Counts {
        ring.withLock { ring in
            var counts = Counts(
                total: ring.answered, byStatus: ring.otherStatuses, byReason: ring.byReason, faults: ring.faults)
            for (status, count) in ring.byStatus.enumerated() where count > 0 { counts.byStatus[status] = count }
            return counts
        }
    }

    /// How many entries are kept now.
    public var keptCount: Int { ring.withLock { $0.entries.count } }

    /// Requests answered since the emulator started, including those no longer kept.
    public var totalCount: Int { ring.withLock { $0.total } }

    public func removeAll() {
        ring.withLock { ring in
            // The entries go; the tallies (answers since the start) stay.
            ring.entries.removeAll()
            ring.total = 0
            ring.pending?.clear(ring.entries)
        }
    }

    // MARK: - For the writer

    /// What waits for the writer, taken whole (nil when nothing does).
    func takePending() -> DeliveryBatch? {
        ring.withLock { ring in ring.pending?.take(from: &ring.entries) }
    }

    /// Entries waiting for the writer, and those overwritten while waiting that were a loss.
    var waitingForWriter: (count: Int, lost: Int)? {
        ring.withLock { ring in ring.pending.map { ($0.count, $0.lost) } }
    }
}

/// Counts pushes per token in one-second windows, for the emulator's per-token rate limit.
final class TokenRateLimiter: Sendable {
    /// Counts per token for one second; a new second starts an empty table (so it never holds more
    /// tokens than were pushed to in one second, and cleaning it is one `removeAll`).
    private struct Window {
        var second = Int.min
        var counts: [String: Int] = [:]
    }

    private let window = Mutex(Window())
    let limit: Int

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Counts one push to `token` at `second`; false when it is over the limit for that second.
    func admit(_ token: String, at second: Int) -> Bool {
        window.withLock { window in
            if window.second != second {
                window.second = second
                window.counts.removeAll(keepingCapacity: window.counts.count <= 100_000)
            }
            let count = (window.counts[token] ?? 0) + 1
            window.counts[token] = count
            return count <= limit
        }
    }
}
