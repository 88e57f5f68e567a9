// The delivery queue on PostgreSQL, shared by every gateway process of one database. A claim takes
// the oldest due rows `FOR UPDATE SKIP LOCKED`: concurrent claimers (other processes) split the due
// rows instead of waiting for each other or taking the same row, and the lease (claimed-until,
// folded into next-attempt-at) hands a dead process's rows to the others when it runs out.
//
// Lock order, so that no two transactions wait on each other in a circle: a transaction that
// changes both a notification and its deliveries (outcomes, cancel, an expansion chunk) locks the
// notification rows first, in id order, then the delivery rows. Claims lock delivery rows only.
import APNs
import Postgres

extension PostgresGatewayStore {
    static let deliveryColumns = """
        seq, notification_id, kind, recipient, environment, apns_id, status, reason, attempts, next_attempt_at,
        last_attempt_at, apns_unique_id, claimed_by, claimed_until
        """

    /// Claims the oldest due rows: $1 claimer, $2 claimed-until, $3 now, $4 limit.
    static let claimSQL = """
        WITH due AS (
            SELECT seq FROM deliveries WHERE status = 'pending' AND next_attempt_at <= $3
                ORDER BY next_attempt_at, seq LIMIT $4 FOR UPDATE SKIP LOCKED)
        UPDATE deliveries d SET claimed_by = $1, claimed_until = $2, next_attempt_at = $2
            FROM due WHERE d.seq = due.seq
            RETURNING d.seq, notification_id, kind, recipient, environment, apns_id, status, reason, attempts,
                next_attempt_at, last_attempt_at, apns_unique_id, claimed_by, claimed_until
        """

    public func claimDeliveries(limit: Int, claimer: String, leaseMilliseconds: Int, now: Int)
        async throws(GatewayStoreError) -> DeliveryClaim
    {
        try await inTransaction { connection in
            let until = now + max(0, leaseMilliseconds)
            var deliveries = try connection.select(
                Self.claimSQL,
                [.text(claimer), PostgresValue(until), PostgresValue(now), PostgresValue(StoreLimits.clamp(limit))],
                table: "deliveries", Self.readDelivery)
            deliveries.sort { $0.id < $1.id }
            let ids = Array(Set(deliveries.map(\.notificationID)))
            let notifications =
                ids.isEmpty
                ? []
                : try Self.notifications(
                    where: "id = ANY($1)", [.textArray(ids)], in: connection)
            return DeliveryClaim(
                deliveries: deliveries,
                notifications: Dictionary(notifications.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }))
        }
    }

    @discardableResult
    public func recordOutcomes(_ outcomes: [DeliveryOutcome], backoff: DeliveryBackoff, now: Int)
        async throws(GatewayStoreError) -> Int
    {
        guard !outcomes.isEmpty else { return 0 }
        return try await inTransaction { connection in
            // The notifications first (see the lock order above); their rows are read once.
            let notifications = try Self.notifications(
                where: """
                    id IN (SELECT notification_id FROM deliveries WHERE seq = ANY($1)) ORDER BY id
                    """, [.bigintArray(outcomes.map { Int64($0.deliveryID) })], forUpdate: true, in: connection)
            let byID = Dictionary(notifications.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var changes: [NotificationID: NotificationCounts] = [:]
            var pruned = 0
            // Successes (nearly every outcome of a fan-out) in one statement; rows no longer pending
            // (cancelled, or recorded by another process after their lease ran out) are left alone.
            var successIDs: [Int64] = []
            var uniqueIDs: [String] = []
            for outcome in outcomes {
                guard case .succeeded(let uniqueID) = outcome.result else { continue }
                successIDs.append(Int64(outcome.deliveryID))
                uniqueIDs.append(uniqueID ?? "")
            }
            if !successIDs.isEmpty {
                let ended = try connection.query(
                    """
                    UPDATE deliveries d SET status = 'succeeded', reason = NULL, attempts = attempts + 1,
                        last_attempt_at = $1, apns_unique_id = NULLIF(o.unique_id, ''), claimed_by = NULL,
                        claimed_until = NULL
                        FROM unnest($2::bigint[], $3::text[]) AS o(seq, unique_id)
                        WHERE d.seq = o.seq AND d.status = 'pending'
                        RETURNING d.notification_id
                    """, [PostgresValue(now), .bigintArray(successIDs), .textArray(uniqueIDs)])
                for row in ended {
                    if let id = try row.string(0) { changes[id, default: NotificationCounts()].count(.succeeded) }
                }
            }
            for outcome in outcomes.sorted(by: { $0.deliveryID < $1.deliveryID }) {
                if case .succeeded = outcome.result { continue }
                guard
                    let delivery = try connection.select(
                        "SELECT \(Self.deliveryColumns) FROM deliveries WHERE seq = $1 AND status = 'pending' FOR UPDATE",
                        [PostgresValue(outcome.deliveryID)], table: "deliveries", Self.readDelivery
                    ).first,
                    let notification = byID[delivery.notificationID]
                else { continue }
                let (next, prune) = delivery.applying(
                    outcome.result, backoff: backoff, topic: notification.request.topic, now: now)
                try connection.run(
                    """
                    UPDATE deliveries SET status = $1, reason = $2, attempts = $3, next_attempt_at = $4,
                        last_attempt_at = $5, apns_unique_id = $6, claimed_by = NULL, claimed_until = NULL
                        WHERE seq = $7
                    """,
                    [
                        .text(next.status.rawValue), PostgresValue(next.reason), PostgresValue(next.attempts),
                        PostgresValue(next.nextAttemptAt), PostgresValue(next.lastAttemptAt),
                        PostgresValue(next.apnsUniqueID), PostgresValue(next.id),
                    ])
                changes[next.notificationID, default: NotificationCounts()].count(next.status)
                if let prune,
                    try Self.prune(
                        prune, bundleID: notification.request.bundleID, kind: next.kind, token: next.recipient,
                        in: connection)
                {
                    pruned += 1
                }
            }
            for (id, change) in changes.sorted(by: { $0.key < $1.key }) {
                try connection.run(
                    """
                    UPDATE notifications SET pending = pending - $1, succeeded = succeeded + $2, failed = failed + $3,
                        state = CASE WHEN state = 'sending' AND expanded AND pending - $1 = 0 THEN 'done' ELSE state END
                        WHERE id = $4
                    """,
                    [
                        PostgresValue(change.succeeded + change.failed), PostgresValue(change.succeeded),
                        PostgresValue(change.failed), .text(id),
                    ])
            }
            return pruned
        }
    }

    public func renewClaims(_ deliveries: [Delivery], claimer: String, until: Int) async throws(GatewayStoreError)
        -> Set<Int>
    {
        guard !deliveries.isEmpty else { return [] }
        return try await inTransaction { connection in
            let renewed = try connection.query(
                """
                UPDATE deliveries d SET claimed_until = $1, next_attempt_at = $1
                    FROM unnest($2::bigint[], $3::bigint[]) AS l(seq, lease)
                    WHERE d.seq = l.seq AND d.status = 'pending' AND d.claimed_by = $4 AND d.claimed_until = l.lease
                    RETURNING d.seq
                """,
                [
                    PostgresValue(until), .bigintArray(deliveries.map { Int64($0.id) }),
                    .bigintArray(deliveries.map { Int64($0.claimedUntil ?? -1) }), .text(claimer),
                ])
            return Set(try renewed.compactMap { row throws(PostgresError) in try row.int(0) })
        }
    }

    public func pendingDeliveryCount() async throws(GatewayStoreError) -> Int {
        try await withConnection { connection in
            try connection.query("SELECT count(*) FROM deliveries WHERE status = 'pending'").first?.int(0) ?? 0
        }
    }

    public func inactiveTokens(bundleID: String, kind: Delivery.Kind, tokens: [String]) async throws(GatewayStoreError)
        -> Set<String>
    {
        guard let table = kind.tokenTable, !tokens.isEmpty else { return [] }
        return try await withConnection { connection in
            Set(
                try connection.query(
                    "SELECT DISTINCT token FROM \(table) WHERE bundle_id = $1 AND token = ANY($2) AND status <> 'active'",
                    [.text(bundleID), .textArray(tokens)]
                ).map { try $0.string(0) ?? "" })
        }
    }

    public func deliveries(notificationID: NotificationID, after cursor: Int?, limit: Int)
        async throws(GatewayStoreError) -> DeliveryPage
    {
        try await withConnection { connection in
            let limit = StoreLimits.clamp(limit)
            // One row more than asked says whether there is a next page.
            let rows = try connection.select(
                """
                SELECT \(Self.deliveryColumns) FROM deliveries WHERE notification_id = $1 AND seq > $2
                    ORDER BY seq LIMIT $3
                """,
                [.text(notificationID), PostgresValue(cursor ?? 0), PostgresValue(limit + 1)], table: "deliveries",
                Self.readDelivery)
            let page = Array(rows.prefix(limit))
            return DeliveryPage(deliveries: page, nextCursor: rows.count > limit ? page.last?.id : nil)
        }
    }

    static func readDelivery(_ row: PostgresRowReader) throws(GatewayStoreError) -> Delivery {
        let apnsID = try row.string(5, "apns_id")
        let id: APNsID
        do { id = try APNsID(apnsID) } catch { throw row.corrupt("apns_id", apnsID) }
        return Delivery(
            id: try row.int(0, "seq"), notificationID: try row.string(1, "notification_id"),
            kind: try row.value(2, "kind"), recipient: try row.string(3, "recipient"),
            environment: try row.value(4, "environment"), apnsID: id, status: try row.value(6, "status"),
            reason: try row.optionalString(7, "reason"), attempts: try row.int(8, "attempts"),
            nextAttemptAt: try row.int(9, "next_attempt_at"), lastAttemptAt: try row.optionalInt(10, "last_attempt_at"),
            apnsUniqueID: try row.optionalString(11, "apns_unique_id"),
            claimedBy: try row.optionalString(12, "claimed_by"), claimedUntil: try row.optionalInt(13, "claimed_until"))
    }
}
