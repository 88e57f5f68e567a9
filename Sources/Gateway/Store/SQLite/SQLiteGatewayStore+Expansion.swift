// Expansion: a notification's recipients become delivery rows (or, for the engine, claimed chunks:
// SQLiteGatewayStore+Chunks.swift), one chunk per transaction. The cursor (the last device seq
// expanded, or the position in a token list) is written in the same transaction as the chunk, so a crash loses at most a chunk that was never committed and
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
                try Self.expandChunk(id: id, chunkSize: chunkSize, now: now, in: database)
            }
        }
    }

    typealias Lease = ExpansionLease

    /// One chunk made into rows, due at `now`: rows made (nil when there was nothing to do),
    /// recipients in all, whether done. The engine's path, `expandAndClaim`, makes a chunk row
    /// instead (SQLiteGatewayStore+Chunks.swift); both read the recipients with `members`, and a
    /// row's apns-id is derived from its cursor as a chunk member's is.
    private static func expandChunk(id: NotificationID, chunkSize: Int, now: Int, in database: SQLiteDatabase)
        throws -> ExpansionProgress.Step
    {
        guard let source = try chunkSource(where: "id = ?", [.text(id)], in: database) else {
            throw GatewayStoreError.unknownNotification(id)
        }
        guard source.state == .sending, !source.expanded else { return (nil, source.recipients, true) }
        let members = try members(of: source, after: source.cursor, through: .max, limit: chunkSize, in: database)
        for member in members.rows {
            guard let apnsID = SQLiteChunkDelivery.apnsID(base: source.apnsBase, cursor: member.cursor) else {
                throw GatewayStoreError.corrupt(table: "notifications", column: "apns_base", value: id)
            }
            try database.run(
                """
                INSERT INTO deliveries (seq, notification_seq, kind, recipient, environment, apns_id, status,
                    next_attempt_at)
                    VALUES (\(SQLiteSuccessBatch.nextSeqSQL), ?, ?, ?, ?, ?, 'pending', ?)
                """,
                [
                    .integer(source.seq), .text(member.kind.rawValue), .text(member.recipient),
                    .text(member.environment.rawValue), .blob(SQLiteAPNsID.bytes(apnsID)), .integer(now),
                ])
        }
        let count = members.rows.count
        try advanceExpansion(
            seq: source.seq, cursor: members.cursor, finished: members.finished, count: count, in: database)
        return (count, source.recipients + count, members.finished)
    }

    /// Records a chunk's expansion in its notification: the cursor, whether it is finished, `count`
    /// more recipients (pending), and `done` when it is finished with nothing pending.
    static func advanceExpansion(seq: Int, cursor: Int, finished: Bool, count: Int, in database: SQLiteDatabase)
        throws
    {
        try database.run(
            """
            UPDATE notifications SET expansion_cursor = ?, expanded = ?, recipients = recipients + ?,
                pending = pending + ?, state = CASE WHEN ? = 1 AND pending + ? = 0 THEN 'done' ELSE state END
                WHERE seq = ?
            """,
            [
                .integer(cursor), .integer(finished ? 1 : 0), .integer(count), .integer(count),
                .integer(finished ? 1 : 0), .integer(count), .integer(seq),
            ])
    }

    /// The next listed recipients (tokens, an activity, a channel) after `cursor`, at most `limit`,
    /// the cursor after them, and whether none are left. Queried kinds are `members`'s.
    static func recipients(
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
    /// Kinds whose recipients `expansionSQL` selects.
    static func isQueried(_ kind: String) -> Bool { kind == "tags" || kind == "users" || kind == "push-to-start" }

    /// The query that reads the next chunk of recipients of `kind` (tags, users or push-to-start)
    /// after a cursor: parameters ?1 bundle id, ?2 cursor, ?3 the JSON list, ?4 limit, ?5 the
    /// attributes type (push-to-start), ?6 the last seq to read (a chunk read again; else the
    /// largest integer). Tags walk the app's devices in seq order from the cursor
    /// and sort nothing (a tag may cover them all); users and push-to-start look each listed user
    /// up by index first and sort only those users' rows. A test checks the plans.
    static func expansionSQL(_ kind: String) -> String {
        switch kind {
        case "tags":
            """
            SELECT d.seq, d.token, d.environment FROM devices d
                WHERE d.bundle_id = ?1 AND d.seq > ?2 AND d.seq <= ?6 AND d.status = 'active'
                    AND EXISTS (SELECT 1 FROM device_tags t WHERE t.device_seq = d.seq
                                AND t.tag IN (SELECT value FROM json_each(?3)))
                ORDER BY d.seq LIMIT ?4
            """
        case "users":
            """
            SELECT d.seq, d.token, d.environment FROM json_each(?3) u
                CROSS JOIN devices d ON d.bundle_id = ?1 AND d.user_id = u.value
                WHERE d.seq > ?2 AND d.seq <= ?6 AND d.status = 'active'
                ORDER BY d.seq LIMIT ?4
            """
        default:
            """
            SELECT d.seq, d.token, d.environment FROM json_each(?3) u
                CROSS JOIN push_to_start_tokens d ON d.bundle_id = ?1 AND d.user_id = u.value AND d.attributes_type = ?5
                WHERE d.seq > ?2 AND d.seq <= ?6 AND d.status = 'active'
                ORDER BY d.seq LIMIT ?4
            """
        }
    }
}

/// Who holds the deliveries `expandAndClaim` claims, and until when (SQLite's and PostgreSQL's).
struct ExpansionLease {
    var claimer: String
    var until: Int
}

/// One recipient found by an expansion: its cursor (a seq, or the place in a token list), which no
/// other recipient of the notification has.
struct ExpansionRow {
    var cursor: Int
    var kind: Delivery.Kind
    var recipient: String
    var environment: Environment
}
