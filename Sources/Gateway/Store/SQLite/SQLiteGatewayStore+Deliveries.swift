// The delivery queue: rows made by `expandNotification` and rows of retries (a chunk's members have
// no row until their outcome: SQLiteGatewayStore+Chunks.swift). A claim is one UPDATE ... RETURNING: it takes the oldest due pending rows and
// moves their next_attempt_at to the end of the lease, so a claimed row is not due again until the
// lease runs out (a worker that died leaves its rows to be claimed again, same apns-id). PostgreSQL
// runs the same statement with FOR UPDATE SKIP LOCKED in the inner SELECT (docs/GATEWAY.md).
import APNs
import Storage

extension SQLiteGatewayStore {
    /// A row names its notification by seq; the column reads back its id (a rowid lookup).
    static let deliveryColumns = """
        seq, (SELECT id FROM notifications WHERE notifications.seq = deliveries.notification_seq), kind, recipient,
        environment, apns_id, status, reason, attempts, next_attempt_at, last_attempt_at, apns_unique_id, claimed_by,
        claimed_until
        """

    /// Claims the oldest due rows: parameters claimer, claimed-until (twice), now, limit.
    static let claimSQL = """
        UPDATE deliveries SET claimed_by = ?, claimed_until = ?, next_attempt_at = ?
            WHERE seq IN (SELECT seq FROM deliveries WHERE status = 'pending' AND next_attempt_at <= ?
                          ORDER BY next_attempt_at, seq LIMIT ?)
            RETURNING \(deliveryColumns)
        """

    /// Ends the listed deliveries as succeeded: parameters now, a JSON array of [delivery seq,
    /// apns-unique-id or null]. json_each drives, each row one rowid lookup; rows no longer
    /// pending are left alone. Returns each ended row's notification seq.
    static let successSQL = """
        UPDATE deliveries SET status = 'succeeded', reason = NULL, attempts = attempts + 1, last_attempt_at = ?1,
            apns_unique_id = o.value ->> 1, claimed_by = NULL, claimed_until = NULL
            FROM json_each(?2) o WHERE deliveries.seq = o.value ->> 0 AND deliveries.status = 'pending'
            RETURNING deliveries.notification_seq
        """

    public func claimDeliveries(limit: Int, claimer: String, leaseMilliseconds: Int, now: Int)
        async throws(GatewayStoreError) -> DeliveryClaim
    {
        try await inTransaction { database in
            let until = now + max(0, leaseMilliseconds)
            var deliveries = try database.select(
                Self.claimSQL,
                [.text(claimer), .integer(until), .integer(until), .integer(now), .integer(StoreLimits.clamp(limit))],
                table: "deliveries", Self.readDelivery)
            if deliveries.isEmpty,
                let chunk = try Self.claimExpiredChunk(
                    lease: Lease(claimer: claimer, until: until), now: now, in: database)
            {
                return chunk
            }
            deliveries.sort { $0.id < $1.id }
            var notifications: [NotificationID: StoredNotification] = [:]
            for id in Set(deliveries.map(\.notificationID)) {
                notifications[id] = try Self.notifications(where: "id = ?", [.text(id)], in: database).first
            }
            return DeliveryClaim(deliveries: deliveries, notifications: notifications)
        }
    }

    @discardableResult
    public func recordOutcomes(_ outcomes: [DeliveryOutcome], backoff: DeliveryBackoff, now: Int)
        async throws(GatewayStoreError) -> Int
    {
        // Successes (nearly every outcome of a fan-out) are one statement for the batch, which
        // reads nothing back but the notification of each row it ended: what
        // `Delivery.applying(.succeeded)` does, written in SQL. Their JSON is encoded here, on the
        // caller's thread, not on the store's.
        // Members of a chunk (negative ids) have no row yet: `recordChunkOutcomes` makes theirs.
        let chunked = ChunkOutcomes.of(outcomes.filter { $0.deliveryID < 0 })
        let outcomes = outcomes.filter { $0.deliveryID >= 0 }
        let successes = outcomes.compactMap { outcome -> JSONValue? in
            guard case .succeeded(let uniqueID) = outcome.result else { return nil }
            return .array([.number(JSONNumber(outcome.deliveryID)), uniqueID.map(JSONValue.string) ?? .null])
        }
        let successList = successes.isEmpty ? nil : JSONValue.array(successes).encodedString
        return try await inTransaction { database in
            var pruned = try Self.recordChunkOutcomes(chunked, backoff: backoff, now: now, in: database)
            var notifications: [NotificationID: StoredNotification] = [:]
            var changes: [NotificationID: NotificationCounts] = [:]
            var succeededBySeq: [Int: Int] = [:]
            if let successList {
                let ended = try database.query(Self.successSQL, [.integer(now), .text(successList)]) { $0.int(0) }
                for seq in ended {
                    if let seq { succeededBySeq[seq, default: 0] += 1 }
                }
            }
            for outcome in outcomes {
                if case .succeeded = outcome.result { continue }
                guard
                    let delivery = try database.select(
                        "SELECT \(Self.deliveryColumns) FROM deliveries WHERE seq = ? AND status = 'pending'",
                        [.integer(outcome.deliveryID)], table: "deliveries", Self.readDelivery
                    ).first
                else { continue }
                if notifications[delivery.notificationID] == nil {
                    notifications[delivery.notificationID] = try Self.notifications(
                        where: "id = ?", [.text(delivery.notificationID)], in: database
                    ).first
                }
                guard let notification = notifications[delivery.notificationID] else { continue }
                let (next, prune) = delivery.applying(
                    outcome.result, backoff: backoff, topic: notification.request.topic, now: now)
                try database.run(
                    """
                    UPDATE deliveries SET status = ?, reason = ?, attempts = ?, next_attempt_at = ?, last_attempt_at = ?,
                        apns_unique_id = ?, claimed_by = NULL, claimed_until = NULL
                        WHERE seq = ?
                    """,
                    [
                        .text(next.status.rawValue), SQLiteValue(next.reason), .integer(next.attempts),
                        .integer(next.nextAttemptAt), SQLiteValue(next.lastAttemptAt), SQLiteValue(next.apnsUniqueID),
                        .integer(next.id),
                    ])
                changes[next.notificationID, default: NotificationCounts()].count(next.status)
                if let prune,
                    try Self.prune(
                        prune, bundleID: notification.request.bundleID, kind: next.kind, token: next.recipient,
                        in: database)
                {
                    pruned += 1
                }
            }
            for (seq, succeeded) in succeededBySeq {
                try Self.count(succeeded: succeeded, failed: 0, notification: "seq", .integer(seq), in: database)
            }
            for (id, change) in changes {
                try Self.count(
                    succeeded: change.succeeded, failed: change.failed, notification: "id", .text(id), in: database)
            }
            return pruned
        }
    }

    public func renewClaims(_ deliveries: [Delivery], claimer: String, until: Int) async throws(GatewayStoreError)
        -> Set<Int>
    {
        try await inTransaction { database in
            var renewed = Set<Int>()
            // A chunk's members share its one lease: the chunk row is renewed once for them all.
            var chunks: [Int: (lease: Int?, members: [Int])] = [:]
            for delivery in deliveries {
                if let chunk = SQLiteChunkDelivery.chunk(of: delivery.id) {
                    chunks[chunk, default: (delivery.claimedUntil, [])].members.append(delivery.id)
                    continue
                }
                let changed = try database.run(
                    """
                    UPDATE deliveries SET claimed_until = ?1, next_attempt_at = ?1
                        WHERE seq = ?2 AND status = 'pending' AND claimed_by = ?3 AND claimed_until = ?4
                    """,
                    [.integer(until), .integer(delivery.id), .text(claimer), SQLiteValue(delivery.claimedUntil)])
                if changed > 0 { renewed.insert(delivery.id) }
            }
            for (seq, chunk) in chunks {
                let changed = try database.run(
                    """
                    UPDATE delivery_chunks SET claimed_until = ?1
                        WHERE seq = ?2 AND claimed_by = ?3 AND claimed_until = ?4
                    """, [.integer(until), .integer(seq), .text(claimer), SQLiteValue(chunk.lease)])
                if changed > 0 { renewed.formUnion(chunk.members) }
            }
            return renewed
        }
    }

    public func pendingDeliveryCount() async throws(GatewayStoreError) -> Int {
        // Served by the partial index deliveries_due (status = 'pending'): it counts the pending rows only.
        try await withDatabase { database in
            let rows =
                try database.query("SELECT count(*) FROM deliveries WHERE status = 'pending'") { $0.int(0) ?? 0 }.first
                ?? 0
            // And the members of claimed chunks without a row yet.
            let members =
                try database.query("SELECT coalesce(sum(unrecorded), 0) FROM delivery_chunks") { $0.int(0) ?? 0 }.first
                ?? 0
            return rows + members
        }
    }

    public func inactiveTokens(bundleID: String, kind: Delivery.Kind, tokens: [String]) async throws(GatewayStoreError)
        -> Set<String>
    {
        guard let table = kind.tokenTable, !tokens.isEmpty else { return [] }
        let list = NotificationRequest.Recipients.encodeList(tokens)
        return try await withDatabase { database in
            // json_each drives: each listed token is one lookup in the unique (bundle_id, token) index.
            Set(
                try database.query(
                    """
                    SELECT DISTINCT t.token FROM json_each(?1) u CROSS JOIN \(table) t
                        ON t.bundle_id = ?2 AND t.token = u.value WHERE t.status != 'active'
                    """, [.text(list), .text(bundleID)]
                ) { $0.string(0) ?? "" })
        }
    }

    static func readDelivery(_ row: SQLiteRowReader) throws(GatewayStoreError) -> Delivery {
        guard let id = SQLiteAPNsID.read(row.statement.value(5)) else {
            throw row.corrupt("apns_id", "\(row.statement.value(5))")
        }
        return Delivery(
            id: try row.int(0, "seq"), notificationID: try row.string(1, "notification_id"),
            kind: try row.value(2, "kind"),
            recipient: try row.string(3, "recipient"), environment: try row.value(4, "environment"), apnsID: id,
            status: try row.value(6, "status"), reason: row.optionalString(7), attempts: try row.int(8, "attempts"),
            nextAttemptAt: try row.int(9, "next_attempt_at"), lastAttemptAt: row.optionalInt(10),
            apnsUniqueID: row.optionalString(11), claimedBy: row.optionalString(12), claimedUntil: row.optionalInt(13))
    }

    /// Moves `succeeded` and `failed` of a notification (by its `seq` or `id` column) from pending to
    /// their counts, and marks it done when nothing is left pending after its expansion.
    static func count(
        succeeded: Int, failed: Int, notification column: String, _ key: SQLiteValue, in database: SQLiteDatabase
    ) throws {
        try database.run(
            """
            UPDATE notifications SET pending = pending - ?, succeeded = succeeded + ?, failed = failed + ?
                WHERE \(column) = ?
            """, [.integer(succeeded + failed), .integer(succeeded), .integer(failed), key])
        try database.run(
            """
            UPDATE notifications SET state = 'done'
                WHERE \(column) = ? AND state = 'sending' AND expanded = 1 AND pending = 0
            """, [key])
    }
}

extension NotificationCounts {
    /// Counts one delivery that ended (or is still pending) with `status`.
    mutating func count(_ status: Delivery.Status) {
        switch status {
        case .pending: break
        case .succeeded: succeeded += 1
        case .failed: failed += 1
        case .cancelled: cancelled += 1
        }
    }
}
