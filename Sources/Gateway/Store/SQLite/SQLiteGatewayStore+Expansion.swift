// Expansion: a notification's recipients become delivery rows, one chunk per transaction. The
// cursor (the last device seq expanded, or the position in a token list) is written in the same
// transaction as the chunk's rows, so a crash loses at most a chunk that was never committed and
// a resumed expansion starts after the last one that was. Recipients are read `chunkSize` at a
// time by the cursor, never all at once.
import APNs
import Storage

extension SQLiteGatewayStore {
    public func expandNotification(id: NotificationID, chunkSize: Int, maximumChunks: Int, now: Int)
        async throws(GatewayStoreError) -> ExpansionProgress
    {
        let chunkSize = StoreLimits.clamp(chunkSize)
        return try await ExpansionProgress.run(maximumChunks: maximumChunks) { () async throws(GatewayStoreError) in
            try await inTransaction { database in
                try Self.expandChunk(id: id, chunkSize: chunkSize, lease: nil, now: now, in: database).step
            }
        }
    }

    public func expandAndClaim(id: NotificationID, chunkSize: Int, claimer: String, leaseMilliseconds: Int, now: Int)
        async throws(GatewayStoreError) -> ClaimedExpansion
    {
        let chunkSize = StoreLimits.clamp(chunkSize)
        let lease = Lease(claimer: claimer, until: now + max(0, leaseMilliseconds))
        return try await inTransaction { database in
            let (step, made) = try Self.expandChunk(id: id, chunkSize: chunkSize, lease: lease, now: now, in: database)
            let notification =
                made.isEmpty ? nil : try Self.notifications(where: "id = ?", [.text(id)], in: database).first
            return ClaimedExpansion(step: step, made: made, notification: notification)
        }
    }

    typealias Lease = ExpansionLease

    /// One chunk: rows made (nil when there was nothing to do), recipients in all, whether done;
    /// with a lease, the rows are made claimed by it and returned.
    private static func expandChunk(
        id: NotificationID, chunkSize: Int, lease: Lease?, now: Int, in database: SQLiteDatabase
    ) throws -> (step: ExpansionProgress.Step, made: [Delivery]) {
        let rows = try database.select(
            """
            SELECT state, expanded, expansion_cursor, to_kind, to_values, to_detail, bundle_id, environment, recipients,
                seq
                FROM notifications WHERE id = ?
            """, [.text(id)], table: "notifications"
        ) { row throws(GatewayStoreError) in
            (
                state: try row.value(0, "state", as: NotificationState.self), expanded: try row.int(1, "expanded") != 0,
                cursor: try row.int(2, "expansion_cursor"), kind: try row.string(3, "to_kind"),
                values: try row.string(4, "to_values"), detail: row.optionalString(5),
                bundleID: try row.string(6, "bundle_id"),
                environment: try row.value(7, "environment", as: Environment.self),
                recipients: try row.int(8, "recipients"), seq: try row.int(9, "seq")
            )
        }
        guard let notification = rows.first else { throw GatewayStoreError.unknownNotification(id) }
        guard notification.state == .sending, !notification.expanded else {
            return ((nil, notification.recipients, true), [])
        }
        let chunk: (count: Int, cursor: Int, finished: Bool, made: [Delivery])
        if Self.isQueried(notification.kind) {
            chunk = try insertQueriedChunk(
                id: id, seq: notification.seq, kind: notification.kind, list: notification.values,
                detail: notification.detail, bundleID: notification.bundleID, after: notification.cursor,
                limit: chunkSize, lease: lease, now: now, in: database)
        } else {
            let listed = try recipients(
                kind: notification.kind, list: notification.values, detail: notification.detail,
                bundleID: notification.bundleID, environment: notification.environment, after: notification.cursor,
                limit: chunkSize, in: database)
            let made = try insertRows(
                listed.rows, id: id, seq: notification.seq, lease: lease, now: now, in: database)
            chunk = (listed.rows.count, listed.cursor, listed.finished, made)
        }
        let count = chunk.count
        try database.run(
            """
            UPDATE notifications SET expansion_cursor = ?, expanded = ?, recipients = recipients + ?,
                pending = pending + ?, state = CASE WHEN ? = 1 AND pending + ? = 0 THEN 'done' ELSE state END
                WHERE id = ?
            """,
            [
                .integer(chunk.cursor), .integer(chunk.finished ? 1 : 0), .integer(count), .integer(count),
                .integer(chunk.finished ? 1 : 0), .integer(count), .text(id),
            ])
        return ((count, notification.recipients + count, chunk.finished), chunk.made)
    }

    /// Inserts `rows` one statement each, each with a fresh apns-id; with a lease, made claimed by
    /// it and returned.
    private static func insertRows(
        _ rows: [ExpansionRow], id: NotificationID, seq: Int, lease: Lease?, now: Int,
        in database: SQLiteDatabase
    ) throws -> [Delivery] {
        var made: [Delivery] = []
        for recipient in rows {
            let apnsID = APNsID.random()
            // A claimed row is due again when its lease runs out, as `claimDeliveries` leaves it.
            try database.run(
                """
                INSERT INTO deliveries (notification_seq, kind, recipient, environment, apns_id, status,
                    next_attempt_at, claimed_by, claimed_until)
                    VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?)
                """,
                [
                    .integer(seq), .text(recipient.kind.rawValue), .text(recipient.recipient),
                    .text(recipient.environment.rawValue), .blob(SQLiteAPNsID.bytes(apnsID)),
                    .integer(lease?.until ?? now),
                    SQLiteValue(lease?.claimer), SQLiteValue(lease?.until),
                ])
            if let lease {
                made.append(
                    Delivery(
                        id: database.lastInsertRowID, notificationID: id, kind: recipient.kind,
                        recipient: recipient.recipient, environment: recipient.environment, apnsID: apnsID,
                        nextAttemptAt: lease.until, claimedBy: lease.claimer, claimedUntil: lease.until))
            }
        }
        return made
    }

    /// The next listed recipients (tokens, an activity, a channel) after `cursor`, at most `limit`,
    /// the cursor after them, and whether none are left. Queried kinds are `insertQueriedChunk`'s.
    private static func recipients(
        kind: String, list: String, detail: String?, bundleID: String, environment: Environment, after cursor: Int,
        limit: Int, in database: SQLiteDatabase
    ) throws -> (rows: [ExpansionRow], cursor: Int, finished: Bool) {
        guard let values = NotificationRequest.Recipients.decodeList(list) else {
            throw GatewayStoreError.corrupt(table: "notifications", column: "to_values", value: list)
        }
        switch kind {
        case "tokens":
            let end = min(values.count, cursor + limit)
            var rows: [ExpansionRow] = []
            for position in cursor..<max(cursor, end) {
                let known = try database.select(
                    "SELECT environment, status FROM devices WHERE bundle_id = ? AND token = ?",
                    [.text(bundleID), .text(values[position])], table: "devices"
                ) { row throws(GatewayStoreError) in
                    (
                        try row.value(0, "environment", as: Environment.self),
                        try row.value(1, "status", as: TokenStatus.self)
                    )
                }.first
                if let known, known.1 != .active { continue }
                rows.append(
                    ExpansionRow(
                        cursor: position + 1, kind: .device, recipient: values[position],
                        environment: known?.0 ?? environment))
            }
            return (rows, max(cursor, end), end >= values.count)
        case "activity":
            let rows = try database.select(
                "SELECT token, environment FROM activity_tokens WHERE bundle_id = ? AND activity_id = ? AND status = 'active'",
                [.text(bundleID), .text(values.first ?? "")], table: "activity_tokens"
            ) { row throws(GatewayStoreError) in
                ExpansionRow(
                    cursor: 1, kind: .activity, recipient: try row.string(0, "token"),
                    environment: try row.value(1, "environment"))
            }
            return (rows, 1, true)
        case "channel":
            return (
                [ExpansionRow(cursor: 1, kind: .channel, recipient: values.first ?? "", environment: environment)], 1,
                true
            )
        default:
            throw GatewayStoreError.corrupt(table: "notifications", column: "to_kind", value: kind)
        }
    }
}

extension SQLiteGatewayStore {
    /// The query that reads the next chunk of recipients of `kind` (tags, users or push-to-start)
    /// after a cursor: parameters ?1 bundle id, ?2 cursor, ?3 the JSON list, ?4 limit, ?5 the
    /// attributes type (push-to-start). Tags walk the app's devices in seq order from the cursor
    /// and sort nothing (a tag may cover them all); users and push-to-start look each listed user
    /// up by index first and sort only those users' rows. A test checks the plans.
    static func expansionSQL(_ kind: String) -> String {
        switch kind {
        case "tags":
            """
            SELECT d.seq, d.token, d.environment FROM devices d
                WHERE d.bundle_id = ?1 AND d.seq > ?2 AND d.status = 'active'
                    AND EXISTS (SELECT 1 FROM device_tags t WHERE t.device_seq = d.seq
                                AND t.tag IN (SELECT value FROM json_each(?3)))
                ORDER BY d.seq LIMIT ?4
            """
        case "users":
            """
            SELECT d.seq, d.token, d.environment FROM json_each(?3) u
                CROSS JOIN devices d ON d.bundle_id = ?1 AND d.user_id = u.value
                WHERE d.seq > ?2 AND d.status = 'active'
                ORDER BY d.seq LIMIT ?4
            """
        default:
            """
            SELECT d.seq, d.token, d.environment FROM json_each(?3) u
                CROSS JOIN push_to_start_tokens d ON d.bundle_id = ?1 AND d.user_id = u.value AND d.attributes_type = ?5
                WHERE d.seq > ?2 AND d.status = 'active'
                ORDER BY d.seq LIMIT ?4
            """
        }
    }
}

/// One recipient found by an expansion, with the cursor just past it.
/// Who holds the rows `expandAndClaim` makes, and until when (SQLite's and PostgreSQL's).
struct ExpansionLease {
    var claimer: String
    var until: Int
}

struct ExpansionRow {
    var cursor: Int
    var kind: Delivery.Kind
    var recipient: String
    var environment: Environment
}
