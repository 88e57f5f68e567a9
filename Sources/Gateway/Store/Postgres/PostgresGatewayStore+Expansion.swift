// Expansion on PostgreSQL: SQLiteGatewayStore+Expansion.swift's chunks, one transaction each, with
// the cursor moved in the chunk's transaction. Each chunk begins by reading the notification's row
// `FOR UPDATE`: two processes resuming the same expansion take turns, and the second reads the
// cursor the first committed (READ COMMITTED re-reads a row it waited for), so no recipient gets a
// row twice. A chunk's rows go in with one INSERT over `unnest` of arrays; `expandAndClaim` makes
// them already claimed (next attempt at the lease's end, as `claimDeliveries` leaves a row) and
// returns them, so a fresh fan-out needs no claim of its own.
import APNs
import Postgres

extension PostgresGatewayStore {
    public func expandNotification(id: NotificationID, chunkSize: Int, maximumChunks: Int, now: Int)
        async throws(GatewayStoreError) -> ExpansionProgress
    {
        let chunkSize = StoreLimits.clamp(chunkSize)
        return try await ExpansionProgress.run(maximumChunks: maximumChunks) { () async throws(GatewayStoreError) in
            try await inTransaction { connection in
                try Self.expandChunk(id: id, chunkSize: chunkSize, lease: nil, now: now, in: connection).step
            }
        }
    }

    public func expandAndClaim(id: NotificationID, chunkSize: Int, claimer: String, leaseMilliseconds: Int, now: Int)
        async throws(GatewayStoreError) -> ClaimedExpansion
    {
        let chunkSize = StoreLimits.clamp(chunkSize)
        let lease = ExpansionLease(claimer: claimer, until: now + max(0, leaseMilliseconds))
        return try await inTransaction { connection in
            let (step, made) = try Self.expandChunk(
                id: id, chunkSize: chunkSize, lease: lease, now: now, in: connection)
            let notification =
                made.isEmpty ? nil : try Self.notifications(where: "id = $1", [.text(id)], in: connection).first
            return ClaimedExpansion(step: step, made: made, notification: notification)
        }
    }

    /// One chunk: rows made (nil when there was nothing to do), recipients in all, whether done;
    /// with a lease, the rows are made claimed by it and returned.
    private static func expandChunk(
        id: NotificationID, chunkSize: Int, lease: ExpansionLease?, now: Int, in connection: PostgresConnection
    ) throws -> (step: ExpansionProgress.Step, made: [Delivery]) {
        let rows = try connection.select(
            """
            SELECT state, expanded, expansion_cursor, to_kind, to_values, to_detail, bundle_id, environment, recipients
                FROM notifications WHERE id = $1 FOR UPDATE
            """, [.text(id)], table: "notifications"
        ) { row throws(GatewayStoreError) in
            (
                state: try row.value(0, "state", as: NotificationState.self), expanded: try row.bool(1, "expanded"),
                cursor: try row.int(2, "expansion_cursor"), kind: try row.string(3, "to_kind"),
                values: try row.string(4, "to_values"), detail: try row.optionalString(5, "to_detail"),
                bundleID: try row.string(6, "bundle_id"),
                environment: try row.value(7, "environment", as: Environment.self),
                recipients: try row.int(8, "recipients")
            )
        }
        guard let notification = rows.first else { throw GatewayStoreError.unknownNotification(id) }
        guard notification.state == .sending, !notification.expanded else {
            return ((nil, notification.recipients, true), [])
        }
        guard let values = NotificationRequest.Recipients.decodeList(notification.values) else {
            throw GatewayStoreError.corrupt(table: "notifications", column: "to_values", value: notification.values)
        }
        let chunk = try recipients(
            kind: notification.kind, values: values, detail: notification.detail, bundleID: notification.bundleID,
            environment: notification.environment, after: notification.cursor, limit: chunkSize, in: connection)
        var made: [Delivery] = []
        if !chunk.rows.isEmpty {
            let apnsIDs = chunk.rows.map { _ in APNsID.random() }
            // A claimed row is due again when its lease runs out, as `claimDeliveries` leaves it.
            let seqs = try connection.query(
                """
                INSERT INTO deliveries (notification_id, kind, recipient, environment, apns_id, status, next_attempt_at,
                        claimed_by, claimed_until)
                    SELECT $1, kind, recipient, environment, apns_id, 'pending', $2, $7, $8
                        FROM unnest($3::text[], $4::text[], $5::text[], $6::text[])
                            WITH ORDINALITY AS r(kind, recipient, environment, apns_id, n)
                        ORDER BY n
                    RETURNING seq, apns_id
                """,
                [
                    .text(id), PostgresValue(lease?.until ?? now), .textArray(chunk.rows.map(\.kind.rawValue)),
                    .textArray(chunk.rows.map(\.recipient)), .textArray(chunk.rows.map(\.environment.rawValue)),
                    .textArray(apnsIDs.map(\.value)), PostgresValue(lease?.claimer), PostgresValue(lease?.until),
                ]
            ).map { row in (seq: try row.int(0) ?? 0, apnsID: try row.string(1) ?? "") }
            if let lease {
                // RETURNING's order is not promised: each row is found again by its apns-id, drawn here.
                let seqByID = Dictionary(seqs.map { ($0.apnsID, $0.seq) }, uniquingKeysWith: { first, _ in first })
                for (row, apnsID) in zip(chunk.rows, apnsIDs) {
                    guard let seq = seqByID[apnsID.value] else {
                        throw GatewayStoreError.corrupt(table: "deliveries", column: "apns_id", value: apnsID.value)
                    }
                    made.append(
                        Delivery(
                            id: seq, notificationID: id, kind: row.kind, recipient: row.recipient,
                            environment: row.environment, apnsID: apnsID, nextAttemptAt: lease.until,
                            claimedBy: lease.claimer, claimedUntil: lease.until))
                }
                made.sort { $0.id < $1.id }
            }
        }
        let count = chunk.rows.count
        try connection.run(
            """
            UPDATE notifications SET expansion_cursor = $1, expanded = $2, recipients = recipients + $3,
                pending = pending + $3, state = CASE WHEN $2 AND pending + $3 = 0 THEN 'done' ELSE state END
                WHERE id = $4
            """, [PostgresValue(chunk.cursor), .bool(chunk.finished), PostgresValue(count), .text(id)])
        return ((count, notification.recipients + count, chunk.finished), made)
    }

    /// The next recipients after `cursor`, at most `limit`, the cursor after them, and whether none are left.
    private static func recipients(
        kind: String, values: [String], detail: String?, bundleID: String, environment: Environment, after cursor: Int,
        limit: Int, in connection: PostgresConnection
    ) throws -> (rows: [ExpansionRow], cursor: Int, finished: Bool) {
        switch kind {
        case "tags", "users", "push-to-start":
            let (table, rowKind): (String, Delivery.Kind) =
                kind == "push-to-start" ? ("push_to_start_tokens", .pushToStart) : ("devices", .device)
            var parameters: [PostgresValue] = [
                .text(bundleID), PostgresValue(cursor), .textArray(values), PostgresValue(limit),
            ]
            if kind == "push-to-start" { parameters.append(.text(detail ?? "")) }
            let rows = try connection.select(expansionSQL(kind), parameters, table: table) {
                row throws(GatewayStoreError) in
                ExpansionRow(
                    cursor: try row.int(0, "seq"), kind: rowKind, recipient: try row.string(1, "token"),
                    environment: try row.value(2, "environment"))
            }
            return (rows, rows.last?.cursor ?? cursor, rows.count < limit)
        case "tokens":
            // A listed token the app knows goes to its own environment, and only while active.
            let end = min(values.count, cursor + limit)
            let slice = cursor < end ? Array(values[cursor..<end]) : []
            let known = try connection.select(
                "SELECT token, environment, status FROM devices WHERE bundle_id = $1 AND token = ANY($2)",
                [.text(bundleID), .textArray(slice)], table: "devices"
            ) { row throws(GatewayStoreError) in
                (
                    try row.string(0, "token"), try row.value(1, "environment", as: Environment.self),
                    try row.value(2, "status", as: TokenStatus.self)
                )
            }
            let byToken = Dictionary(known.map { ($0.0, ($0.1, $0.2)) }, uniquingKeysWith: { first, _ in first })
            var rows: [ExpansionRow] = []
            for (offset, token) in slice.enumerated() {
                let stored = byToken[token]
                if let stored, stored.1 != .active { continue }
                rows.append(
                    ExpansionRow(
                        cursor: cursor + offset + 1, kind: .device, recipient: token,
                        environment: stored?.0 ?? environment))
            }
            return (rows, max(cursor, end), end >= values.count)
        case "activity":
            let rows = try connection.select(
                """
                SELECT token, environment FROM activity_tokens
                    WHERE bundle_id = $1 AND activity_id = $2 AND status = 'active'
                """,
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

    /// The next chunk of recipients of `kind` (tags, users or push-to-start) after a cursor: $1 bundle
    /// id, $2 cursor, $3 the list, $4 limit, $5 the attributes type. Tags walk the app's devices in
    /// seq order from the cursor; the tags' side repeats the cursor (`t.device_seq > $2`), without
    /// which PostgreSQL's merge join reads the tags from the first device at every chunk (a chunk
    /// late in a 50,000-device expansion read 26,000 tag rows for 1,000 recipients). Users look the
    /// listed users up first.
    static func expansionSQL(_ kind: String) -> String {
        switch kind {
        case "tags":
            """
            SELECT d.seq, d.token, d.environment FROM devices d
                WHERE d.bundle_id = $1 AND d.seq > $2 AND d.status = 'active'
                    AND EXISTS (SELECT 1 FROM device_tags t
                                WHERE t.device_seq = d.seq AND t.device_seq > $2 AND t.tag = ANY($3))
                ORDER BY d.seq LIMIT $4
            """
        case "users":
            """
            SELECT seq, token, environment FROM devices
                WHERE bundle_id = $1 AND user_id = ANY($3) AND seq > $2 AND status = 'active'
                ORDER BY seq LIMIT $4
            """
        default:
            """
            SELECT seq, token, environment FROM push_to_start_tokens
                WHERE bundle_id = $1 AND user_id = ANY($3) AND attributes_type = $5 AND seq > $2 AND status = 'active'
                ORDER BY seq LIMIT $4
            """
        }
    }
}
