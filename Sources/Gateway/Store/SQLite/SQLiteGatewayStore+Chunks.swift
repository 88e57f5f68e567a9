// Chunks: how SQLite writes each delivery row once (docs/GATEWAY.md, "Chunks").
//
//   expandAndClaim: reads the next recipients by the cursor, records them as one chunk row (the
//     cursor range, its worker, its lease) and hands them over: no delivery row yet
//   recordOutcomes: each run of successes among a chunk's members (all of them, in a fan-out) as
//     one `delivery_successes` row (their blob: `SQLiteSuccessBatch`), any other outcome as one
//     `deliveries` row (a retry's row stays pending, in the due index), in member order; the chunk
//     goes once every member is recorded
//   claimDeliveries, when no row is due: a chunk whose lease ran out (its worker died) is claimed
//     again and read again, skipping the members already recorded (in a batch or a row)
//
// Members read again are the recipients active then in the same cursor range, with the same apns-ids
// (`SQLiteChunkDelivery`). Outcomes for a chunk no longer held under the lease they were claimed with
// (claimed again by another worker, or cancelled) are ignored: the sends happened, and the one
// holding the chunk now sends them again with the same ids.
import APNs
import Storage

extension SQLiteGatewayStore {
    public func expandAndClaim(id: NotificationID, chunkSize: Int, claimer: String, leaseMilliseconds: Int, now: Int)
        async throws(GatewayStoreError) -> ClaimedExpansion
    {
        let chunkSize = StoreLimits.clamp(chunkSize)
        let lease = Lease(claimer: claimer, until: now + max(0, leaseMilliseconds))
        // The transaction reads the members; their deliveries (an apns-id derived and formatted
        // per member) are made after it, on the caller's thread: the store's thread bounds a fan-out.
        let chunk = try await inTransaction { database -> ExpandedChunk in
            guard let source = try Self.chunkSource(where: "id = ?", [.text(id)], in: database) else {
                throw GatewayStoreError.unknownNotification(id)
            }
            guard source.state == .sending, !source.expanded else {
                return ExpandedChunk(step: (nil, source.recipients, true), members: [], seq: 0, source: source)
            }
            let members = try Self.members(
                of: source, after: source.cursor, through: .max, limit: chunkSize, in: database)
            var seq = 0
            if !members.rows.isEmpty {
                try database.run(
                    """
                    INSERT INTO delivery_chunks (notification_seq, after_cursor, last_cursor, unrecorded, claimed_by,
                        claimed_until)
                        VALUES (?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .integer(source.seq), .integer(source.cursor), .integer(members.cursor),
                        .integer(members.rows.count), .text(lease.claimer), .integer(lease.until),
                    ])
                seq = database.lastInsertRowID
            }
            let count = members.rows.count
            try Self.advanceExpansion(
                seq: source.seq, cursor: members.cursor, finished: members.finished, count: count, in: database)
            let notification =
                members.rows.isEmpty
                ? nil : try Self.notifications(where: "seq = ?", [.integer(source.seq)], in: database).first
            return ExpandedChunk(
                step: (count, source.recipients + count, members.finished), members: members.rows, seq: seq,
                source: source, notification: notification)
        }
        let made = try Self.chunkDeliveries(chunk.members, chunk: chunk.seq, of: chunk.source, lease: lease)
        return ClaimedExpansion(step: chunk.step, made: made, notification: chunk.notification)
    }

    /// What `expandAndClaim`'s transaction read: the chunk's members, its seq, their notification.
    struct ExpandedChunk: Sendable {
        var step: ExpansionProgress.Step
        var members: [ExpansionRow]
        var seq: Int
        var source: ChunkSource
        var notification: StoredNotification? = nil
    }

    /// Claims the chunk whose lease ran out first, reads its members again and returns those
    /// without a row; nil when no lease has run out. A chunk found with every member recorded goes.
    static func claimExpiredChunk(lease: Lease, now: Int, in database: SQLiteDatabase) throws -> DeliveryClaim? {
        while true {
            let claimed = try database.select(
                """
                UPDATE delivery_chunks SET claimed_by = ?, claimed_until = ?
                    WHERE seq = (SELECT seq FROM delivery_chunks WHERE claimed_until <= ? ORDER BY claimed_until LIMIT 1)
                    RETURNING seq, notification_seq, after_cursor, last_cursor, unrecorded
                """, [.text(lease.claimer), .integer(lease.until), .integer(now)], table: "delivery_chunks"
            ) { row throws(GatewayStoreError) in
                (
                    seq: try row.int(0, "seq"), notification: try row.int(1, "notification_seq"),
                    after: try row.int(2, "after_cursor"), last: try row.int(3, "last_cursor"),
                    unrecorded: try row.int(4, "unrecorded")
                )
            }
            guard let chunk = claimed.first else { return nil }
            var deliveries: [Delivery] = []
            if let source = try chunkSource(where: "seq = ?", [.integer(chunk.notification)], in: database),
                source.state == .sending
            {
                let members = try members(
                    of: source, after: chunk.after, through: chunk.last, limit: StoreLimits.maximumBatch, in: database)
                let succeeded = try recordedSuccesses(chunk: chunk.seq, notification: source.seq, in: database)
                deliveries = try chunkDeliveries(members.rows, chunk: chunk.seq, of: source, lease: lease).filter {
                    delivery throws in
                    try !succeeded.contains(SQLiteAPNsID.bytes(delivery.apnsID))
                        && database.query(
                            "SELECT 1 FROM deliveries WHERE recipient = ? AND notification_seq = ? LIMIT 1",
                            [.text(delivery.recipient), .integer(source.seq)]
                        ) { _ in true }.isEmpty
                }
            }
            // Members pruned or deleted while the chunk waited are not sent and count as cancelled;
            // devices tagged since in its range are sent and count as recipients: so pending stays
            // recipients less recorded outcomes.
            let change = deliveries.count - chunk.unrecorded
            if change != 0 {
                try database.run(
                    """
                    UPDATE notifications SET recipients = recipients + max(?1, 0), cancelled = cancelled + max(-?1, 0),
                        pending = pending + ?1
                        WHERE seq = ?2
                    """, [.integer(change), .integer(chunk.notification)])
                try database.run(
                    """
                    UPDATE notifications SET state = 'done'
                        WHERE seq = ? AND state = 'sending' AND expanded = 1 AND pending = 0
                    """, [.integer(chunk.notification)])
            }
            guard !deliveries.isEmpty,
                let notification = try notifications(where: "seq = ?", [.integer(chunk.notification)], in: database)
                    .first
            else {
                try database.run("DELETE FROM delivery_chunks WHERE seq = ?", [.integer(chunk.seq)])
                continue
            }
            try database.run(
                "UPDATE delivery_chunks SET unrecorded = ? WHERE seq = ?",
                [.integer(deliveries.count), .integer(chunk.seq)])
            return DeliveryClaim(deliveries: deliveries, notifications: [notification.id: notification])
        }
    }

    /// The apns-ids (16 bytes each) of a chunk's members recorded as succeeded.
    static func recordedSuccesses(chunk: Int, notification: Int, in database: SQLiteDatabase) throws -> Set<[UInt8]> {
        let blobs = try database.query(
            "SELECT members FROM delivery_successes WHERE chunk_seq = ? AND notification_seq = ?",
            [.integer(chunk), .integer(notification)]
        ) { $0.bytes(0) ?? [] }
        var ids = Set<[UInt8]>()
        for blob in blobs {
            guard let members = SQLiteSuccessBatch(bytes: blob).members() else {
                throw GatewayStoreError.corrupt(table: "delivery_successes", column: "members", value: "chunk \(chunk)")
            }
            ids.formUnion(members.map(\.apnsID))
        }
        return ids
    }

    /// Records the outcomes of chunk members (`ChunkOutcomes`) in the caller's transaction, in
    /// member order: each run of successes as one batch, each other outcome as one new row; returns
    /// how many tokens the pruning rule changed.
    static func recordChunkOutcomes(
        _ chunks: [ChunkOutcomes], backoff: DeliveryBackoff, now: Int, in database: SQLiteDatabase
    ) throws -> Int {
        var pruned = 0
        for chunk in chunks {
            let held = try database.query(
                "SELECT notification_seq FROM delivery_chunks WHERE seq = ? AND claimed_by = ? AND claimed_until = ?",
                [.integer(chunk.seq), SQLiteValue(chunk.claimedBy), SQLiteValue(chunk.claimedUntil)]
            ) { $0.int(0) }
            guard let notificationSeq = held.first ?? nil else { continue }
            var counts = NotificationCounts()
            var notification: StoredNotification?
            for part in chunk.parts {
                switch part {
                case .successes(let kind, let batch):
                    try database.run(
                        """
                        INSERT INTO delivery_successes (seq, notification_seq, chunk_seq, kind, recorded_at, members)
                            VALUES (\(SQLiteSuccessBatch.nextSeqSQL), ?, ?, ?, ?, ?)
                        """,
                        [.integer(notificationSeq), .integer(chunk.seq), .text(kind.rawValue), .integer(now)],
                        blob: batch.bytes)
                    counts.succeeded += batch.count
                case .other(let delivery, let result):
                    if notification == nil {
                        notification = try notifications(where: "seq = ?", [.integer(notificationSeq)], in: database)
                            .first
                    }
                    guard let notification else { continue }
                    let (next, prune) = delivery.applying(
                        result, backoff: backoff, topic: notification.request.topic, now: now)
                    try database.run(
                        """
                        INSERT INTO deliveries (seq, notification_seq, kind, recipient, environment, apns_id, status,
                            reason, attempts, next_attempt_at, last_attempt_at, apns_unique_id)
                            VALUES (\(SQLiteSuccessBatch.nextSeqSQL), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                        [
                            .integer(notificationSeq), .text(next.kind.rawValue), .text(next.recipient),
                            .text(next.environment.rawValue), .blob(SQLiteAPNsID.bytes(next.apnsID)),
                            .text(next.status.rawValue), SQLiteValue(next.reason), .integer(next.attempts),
                            .integer(next.nextAttemptAt), SQLiteValue(next.lastAttemptAt),
                            SQLiteValue(next.apnsUniqueID),
                        ])
                    counts.count(next.status)
                    if let prune,
                        try Self.prune(
                            prune, bundleID: notification.request.bundleID, kind: next.kind, token: next.recipient,
                            in: database)
                    {
                        pruned += 1
                    }
                }
            }
            try Self.count(
                succeeded: counts.succeeded, failed: counts.failed, notification: "seq", .integer(notificationSeq),
                in: database)
            try database.run(
                "UPDATE delivery_chunks SET unrecorded = unrecorded - ? WHERE seq = ?",
                [.integer(chunk.count), .integer(chunk.seq)])
            try database.run("DELETE FROM delivery_chunks WHERE seq = ? AND unrecorded <= 0", [.integer(chunk.seq)])
        }
        return pruned
    }

    /// One chunk's outcomes, prepared on the caller's thread (not the store's), in member order:
    /// each run of successes packed as one batch, and each other outcome (or a success the batch
    /// format cannot hold) to be inserted as a row; so a notification's listing keeps recipient
    /// order within a chunk. Outcomes without their delivery are left out.
    struct ChunkOutcomes: Sendable {
        enum Part: Sendable {
            case successes(Delivery.Kind, SQLiteSuccessBatch)
            case other(Delivery, DeliveryOutcome.Result)
        }

        var seq: Int
        var claimedBy: String?
        var claimedUntil: Int?
        var count: Int
        var parts: [Part]

        static func of(_ outcomes: [DeliveryOutcome]) -> [ChunkOutcomes] {
            var byChunk: [Int: [(delivery: Delivery, result: DeliveryOutcome.Result)]] = [:]
            for outcome in outcomes {
                guard let delivery = outcome.delivery, let chunk = SQLiteChunkDelivery.chunk(of: outcome.deliveryID)
                else { continue }
                byChunk[chunk, default: []].append((delivery, outcome.result))
            }
            return byChunk.keys.sorted().compactMap { seq in
                guard var members = byChunk[seq], let first = members.first?.delivery else { return nil }
                members.sort {
                    SQLiteChunkDelivery.position(of: $0.delivery.id) < SQLiteChunkDelivery.position(of: $1.delivery.id)
                }
                var parts: [Part] = []
                var run: (kind: Delivery.Kind, batch: SQLiteSuccessBatch)?
                for (delivery, result) in members {
                    if run?.kind != delivery.kind, let open = run {
                        parts.append(.successes(open.kind, open.batch))
                        run = nil
                    }
                    var batch = run?.batch ?? SQLiteSuccessBatch(capacity: members.count)
                    if case .succeeded(let uniqueID) = result,
                        batch.append(
                            SQLiteSuccessBatch.Member(
                                apnsID: SQLiteAPNsID.bytes(delivery.apnsID), recipient: delivery.recipient,
                                environment: delivery.environment, apnsUniqueID: uniqueID))
                    {
                        run = (delivery.kind, batch)
                        continue
                    }
                    if let open = run {
                        parts.append(.successes(open.kind, open.batch))
                        run = nil
                    }
                    parts.append(.other(delivery, result))
                }
                if let open = run { parts.append(.successes(open.kind, open.batch)) }
                return ChunkOutcomes(
                    seq: seq, claimedBy: first.claimedBy, claimedUntil: first.claimedUntil, count: members.count,
                    parts: parts)
            }
        }
    }

    /// What chunks need of a notification's row.
    struct ChunkSource: Sendable {
        var seq: Int
        var id: NotificationID
        var state: NotificationState
        var expanded: Bool
        var cursor: Int
        var kind: String
        var values: String
        var detail: String?
        var bundleID: String
        var environment: Environment
        var recipients: Int
        var apnsBase: [UInt8]
    }

    static func chunkSource(where condition: String, _ values: [SQLiteValue], in database: SQLiteDatabase) throws
        -> ChunkSource?
    {
        try database.select(
            """
            SELECT seq, id, state, expanded, expansion_cursor, to_kind, to_values, to_detail, bundle_id, environment,
                recipients, apns_base
                FROM notifications WHERE \(condition)
            """, values, table: "notifications"
        ) { row throws(GatewayStoreError) in
            guard case .blob(let base) = row.statement.value(11), base.count == 16 else {
                throw row.corrupt("apns_base", "\(row.statement.value(11))")
            }
            return ChunkSource(
                seq: try row.int(0, "seq"), id: try row.string(1, "id"),
                state: try row.value(2, "state", as: NotificationState.self), expanded: try row.int(3, "expanded") != 0,
                cursor: try row.int(4, "expansion_cursor"), kind: try row.string(5, "to_kind"),
                values: try row.string(6, "to_values"), detail: row.optionalString(7),
                bundleID: try row.string(8, "bundle_id"),
                environment: try row.value(9, "environment", as: Environment.self),
                recipients: try row.int(10, "recipients"), apnsBase: base)
        }.first
    }

    /// The recipients after `cursor` up to `through` (included), at most `limit`, the cursor after
    /// them, and whether none are left.
    static func members(
        of source: ChunkSource, after cursor: Int, through last: Int, limit: Int, in database: SQLiteDatabase
    )
        throws -> (rows: [ExpansionRow], cursor: Int, finished: Bool)
    {
        guard isQueried(source.kind) else {
            return try recipients(
                kind: source.kind, list: source.values, detail: source.detail, bundleID: source.bundleID,
                environment: source.environment, after: cursor, limit: min(limit, last - cursor), in: database)
        }
        let kind: Delivery.Kind = source.kind == "push-to-start" ? .pushToStart : .device
        let rows = try database.select(
            expansionSQL(source.kind),
            [
                .text(source.bundleID), .integer(cursor), .text(source.values), .integer(limit),
                SQLiteValue(source.detail), .integer(last),
            ], table: kind == .device ? "devices" : "push_to_start_tokens"
        ) { row throws(GatewayStoreError) in
            ExpansionRow(
                cursor: try row.int(0, "seq"), kind: kind, recipient: try row.string(1, "token"),
                environment: try row.value(2, "environment"))
        }
        return (rows, rows.last?.cursor ?? cursor, rows.count < limit)
    }

    /// The deliveries of a chunk's members, claimed under `lease`.
    static func chunkDeliveries(
        _ rows: [ExpansionRow], chunk: Int, of source: ChunkSource, lease: Lease
    ) throws(GatewayStoreError) -> [Delivery] {
        var deliveries: [Delivery] = []
        deliveries.reserveCapacity(rows.count)
        for (position, row) in rows.enumerated() {
            guard let apnsID = SQLiteChunkDelivery.apnsID(base: source.apnsBase, cursor: row.cursor) else {
                throw GatewayStoreError.corrupt(table: "notifications", column: "apns_base", value: source.id)
            }
            deliveries.append(
                Delivery(
                    id: SQLiteChunkDelivery.id(chunk: chunk, position: position), notificationID: source.id,
                    kind: row.kind, recipient: row.recipient, environment: row.environment, apnsID: apnsID,
                    nextAttemptAt: lease.until, claimedBy: lease.claimer, claimedUntil: lease.until))
        }
        return deliveries
    }
}
