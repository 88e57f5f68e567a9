// Notifications on PostgreSQL: SQLiteGatewayStore+Notifications.swift's answers, written for
// several processes sharing one database. A repeated idempotency key is settled by the unique
// index (`ON CONFLICT DO NOTHING`, then the winner's row is read), a scheduled notification is
// started by one process (`FOR UPDATE SKIP LOCKED`), and a cancel locks the notification's row
// first, as expansion and outcomes do, so the three never wait on each other in opposite orders.
import APNs
import Postgres

extension PostgresGatewayStore {
    static let notificationColumns = """
        id, bundle_id, to_kind, to_values, to_detail, push_type, priority, expiration, collapse_id, payload,
        environment, send_at, idempotency_key, state, created_at, recipients, expanded
        """

    public func createNotification(_ request: NotificationRequest, id: NotificationID, now: Int)
        async throws(GatewayStoreError) -> NotificationCreation
    {
        try await inTransaction { connection in
            if let existing = try Self.existing(request, in: connection) { return existing }
            var request = request
            request.to = request.to.normalized
            let state: NotificationState = (request.sendAt ?? now) > now ? .scheduled : .sending
            let columns = request.to.columns
            // Another process may insert the same idempotency key meanwhile: the unique index makes
            // this INSERT wait for it and then do nothing, and its row is the answer.
            let inserted = try connection.run(
                """
                INSERT INTO notifications (id, bundle_id, to_kind, to_values, to_detail, push_type, priority, expiration,
                    collapse_id, payload, environment, send_at, idempotency_key, state, created_at)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
                    ON CONFLICT (bundle_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
                """,
                [
                    .text(id), .text(request.bundleID), .text(columns.kind),
                    .text(NotificationRequest.Recipients.encodeList(columns.values)), PostgresValue(columns.detail),
                    .text(request.pushType.rawValue), PostgresValue(request.priority?.rawValue),
                    PostgresValue(request.expiration?.unixSeconds), PostgresValue(request.collapseID?.value),
                    .bytea(request.payload), .text(request.environment.rawValue), PostgresValue(request.sendAt),
                    PostgresValue(request.idempotencyKey), .text(state.rawValue), PostgresValue(now),
                ])
            if inserted == 0, let existing = try Self.existing(request, in: connection) { return existing }
            let notification = StoredNotification(
                id: id, request: request, state: state, createdAt: now, recipients: 0, expanded: false)
            let recipients = try Self.countRecipients(request.to, bundleID: request.bundleID, in: connection)
            return NotificationCreation(notification: notification, created: true, recipients: recipients)
        }
    }

    /// The notification already made with the request's idempotency key, if any.
    private static func existing(_ request: NotificationRequest, in connection: PostgresConnection) throws
        -> NotificationCreation?
    {
        guard let key = request.idempotencyKey,
            let existing = try notifications(
                where: "bundle_id = $1 AND idempotency_key = $2", [.text(request.bundleID), .text(key)], in: connection
            ).first
        else { return nil }
        let recipients =
            existing.expanded
            ? existing.recipients
            : try countRecipients(existing.request.to, bundleID: existing.request.bundleID, in: connection)
        return NotificationCreation(notification: existing, created: false, recipients: recipients)
    }

    /// How many recipients `to` has now, by the rules expansion follows (SQLite's `countRecipients`).
    static func countRecipients(
        _ to: NotificationRequest.Recipients, bundleID: String, in connection: PostgresConnection
    )
        throws -> Int
    {
        let columns = to.columns
        guard columns.kind != "channel" else { return 1 }
        var parameters: [PostgresValue] = [.text(bundleID), .textArray(columns.values)]
        if let detail = columns.detail { parameters.append(.text(detail)) }
        let count = try connection.query(recipientCountSQL(columns.kind), parameters).first?.int(0) ?? 0
        return columns.kind == "tokens" ? columns.values.count - count : count
    }

    /// The query that counts the recipients of `kind`: $1 bundle id, $2 the list, $3 the attributes
    /// type (push-to-start). For tokens it counts the listed tokens the app knows as not active.
    static func recipientCountSQL(_ kind: String) -> String {
        switch kind {
        case "tokens":
            "SELECT count(*) FROM devices WHERE bundle_id = $1 AND token = ANY($2) AND status <> 'active'"
        case "tags":
            """
            SELECT count(*) FROM devices d WHERE d.bundle_id = $1 AND d.status = 'active'
                AND EXISTS (SELECT 1 FROM device_tags t WHERE t.device_seq = d.seq AND t.tag = ANY($2))
            """
        case "users":
            "SELECT count(*) FROM devices WHERE bundle_id = $1 AND user_id = ANY($2) AND status = 'active'"
        case "push-to-start":
            """
            SELECT count(*) FROM push_to_start_tokens
                WHERE bundle_id = $1 AND user_id = ANY($2) AND attributes_type = $3 AND status = 'active'
            """
        default:
            "SELECT count(*) FROM activity_tokens WHERE bundle_id = $1 AND activity_id = ($2)[1] AND status = 'active'"
        }
    }

    public func notification(id: NotificationID) async throws(GatewayStoreError) -> StoredNotification? {
        try await withConnection { connection in
            try Self.notifications(where: "id = $1", [.text(id)], in: connection).first
        }
    }

    public func notifications(bundleID: String, before cursor: Int?, limit: Int) async throws(GatewayStoreError)
        -> NotificationPage
    {
        // The same page as SQLite's: `seq` (creation order) walked backwards, one row more than asked
        // saying whether there is a next page.
        try await withConnection { connection in
            let limit = StoreLimits.clamp(limit)
            let seqs = try connection.query(
                "SELECT seq FROM notifications WHERE bundle_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3",
                [.text(bundleID), PostgresValue(cursor ?? Int(Int64.max)), PostgresValue(limit + 1)]
            ).map { try $0.int(0) ?? 0 }
            let page = seqs.prefix(limit)
            guard let oldest = page.last, let newest = page.first else {
                return NotificationPage(notifications: [], nextCursor: nil)
            }
            let notifications = try Self.notifications(
                where: "bundle_id = $1 AND seq BETWEEN $2 AND $3 ORDER BY seq DESC",
                [.text(bundleID), PostgresValue(oldest), PostgresValue(newest)], in: connection)
            return NotificationPage(notifications: notifications, nextCursor: seqs.count > limit ? oldest : nil)
        }
    }

    public func startDueNotifications(now: Int, limit: Int) async throws(GatewayStoreError) -> [NotificationID] {
        // SKIP LOCKED: a process starting the same due notification holds its row; this one passes
        // it by, and once that process commits the row is no longer scheduled. One process starts each.
        try await withConnection { connection in
            try connection.query(
                """
                WITH due AS (
                    SELECT seq FROM notifications WHERE state = 'scheduled' AND send_at <= $1
                        ORDER BY send_at LIMIT $2 FOR UPDATE SKIP LOCKED)
                UPDATE notifications n SET state = 'sending' FROM due WHERE n.seq = due.seq
                    RETURNING n.id
                """, [PostgresValue(now), PostgresValue(StoreLimits.clamp(limit))]
            ).map { try $0.string(0) ?? "" }
        }
    }

    public func notificationsToExpand(limit: Int) async throws(GatewayStoreError) -> [NotificationID] {
        try await withConnection { connection in
            try connection.query(
                "SELECT id FROM notifications WHERE state = 'sending' AND NOT expanded ORDER BY seq LIMIT $1",
                [PostgresValue(StoreLimits.clamp(limit))]
            ).map { try $0.string(0) ?? "" }
        }
    }

    public func counts(id: NotificationID) async throws(GatewayStoreError) -> NotificationCounts {
        try await withConnection { connection in try Self.counts(id: id, in: connection) }
    }

    public func cancelNotification(id: NotificationID, now: Int) async throws(GatewayStoreError) -> StoredNotification {
        try await inTransaction { connection in
            // FOR UPDATE waits for an expansion chunk in flight, so its rows are cancelled too.
            guard
                var notification = try Self.notifications(
                    where: "id = $1", [.text(id)], forUpdate: true, in: connection
                )
                .first
            else { throw GatewayStoreError.unknownNotification(id) }
            guard notification.state == .scheduled || notification.state == .sending else { return notification }
            let cancelled = try connection.run(
                """
                UPDATE deliveries SET status = 'cancelled', claimed_by = NULL, claimed_until = NULL
                    WHERE notification_id = $1 AND status = 'pending'
                """, [.text(id)])
            try connection.run(
                """
                UPDATE notifications SET state = 'cancelled', pending = pending - $1, cancelled = cancelled + $1
                    WHERE id = $2
                """, [PostgresValue(cancelled), .text(id)])
            notification.state = .cancelled
            return notification
        }
    }

    static func counts(id: NotificationID, in connection: PostgresConnection) throws -> NotificationCounts {
        let totals = try connection.select(
            "SELECT succeeded, failed, pending, cancelled FROM notifications WHERE id = $1", [.text(id)],
            table: "notifications"
        ) { row throws(GatewayStoreError) in
            NotificationCounts(
                succeeded: try row.int(0, "succeeded"), failed: try row.int(1, "failed"),
                pending: try row.int(2, "pending"), cancelled: try row.int(3, "cancelled"))
        }
        guard var counts = totals.first else { throw GatewayStoreError.unknownNotification(id) }
        // As in SQLite: the reasons are read from the rows only when something failed.
        guard counts.failed > 0 else { return counts }
        let reasons = try connection.query(
            """
            SELECT reason, count(*) FROM deliveries
                WHERE notification_id = $1 AND status = 'failed' AND reason IS NOT NULL GROUP BY reason
            """, [.text(id)]
        ).map { (try $0.string(0) ?? "", try $0.int(1) ?? 0) }
        counts.byReason = Dictionary(reasons, uniquingKeysWith: +)
        return counts
    }

    static func notifications(
        where condition: String, _ values: [PostgresValue], forUpdate: Bool = false, in connection: PostgresConnection
    ) throws -> [StoredNotification] {
        try connection.select(
            "SELECT \(notificationColumns) FROM notifications WHERE \(condition)" + (forUpdate ? " FOR UPDATE" : ""),
            values, table: "notifications"
        ) { row throws(GatewayStoreError) in
            let kind = try row.string(2, "to_kind")
            let list = try row.string(3, "to_values")
            guard let values = NotificationRequest.Recipients.decodeList(list),
                let to = NotificationRequest.Recipients(
                    kind: kind, values: values, detail: try row.optionalString(4, "to_detail"))
            else { throw row.corrupt("to_values", list) }
            let priority = try row.optionalInt(6, "priority").map { value throws(GatewayStoreError) in
                guard let priority = Priority(rawValue: value) else { throw row.corrupt("priority", "\(value)") }
                return priority
            }
            let collapseID = try row.optionalString(8, "collapse_id").map { text throws(GatewayStoreError) in
                do { return try CollapseID(text) } catch { throw row.corrupt("collapse_id", text) }
            }
            let request = NotificationRequest(
                bundleID: try row.string(1, "bundle_id"), to: to, pushType: try row.value(5, "push_type"),
                priority: priority,
                expiration: try row.optionalInt(7, "expiration").map { $0 == 0 ? .immediately : .at(unixSeconds: $0) },
                collapseID: collapseID, payload: try row.bytes(9, "payload"),
                sendAt: try row.optionalInt(11, "send_at"),
                idempotencyKey: try row.optionalString(12, "idempotency_key"),
                environment: try row.value(10, "environment"))
            return StoredNotification(
                id: try row.string(0, "id"), request: request, state: try row.value(13, "state"),
                createdAt: try row.int(14, "created_at"), recipients: try row.int(15, "recipients"),
                expanded: try row.bool(16, "expanded"))
        }
    }
}
