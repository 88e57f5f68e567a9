import APNs
import Storage

extension SQLiteGatewayStore {
    static let notificationColumns = """
        id, bundle_id, to_kind, to_values, to_detail, push_type, priority, expiration, collapse_id, payload,
        environment, send_at, idempotency_key, state, created_at, recipients, expanded
        """

    public func createNotification(_ request: NotificationRequest, id: NotificationID, now: Int)
        async throws(GatewayStoreError) -> NotificationCreation
    {
        try await inTransaction { database in
            if let key = request.idempotencyKey,
                let existing = try Self.notifications(
                    where: "bundle_id = ? AND idempotency_key = ?", [.text(request.bundleID), .text(key)], in: database
                ).first
            {
                let recipients =
                    existing.expanded
                    ? existing.recipients
                    : try Self.countRecipients(existing.request.to, bundleID: existing.request.bundleID, in: database)
                return NotificationCreation(notification: existing, created: false, recipients: recipients)
            }
            var request = request
            request.to = request.to.normalized
            let state: NotificationState = (request.sendAt ?? now) > now ? .scheduled : .sending
            let columns = request.to.columns
            try database.run(
                """
                INSERT INTO notifications (id, bundle_id, to_kind, to_values, to_detail, push_type, priority, expiration,
                    collapse_id, payload, environment, send_at, idempotency_key, state, created_at, apns_base)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, randomblob(16))
                """,
                [
                    .text(id), .text(request.bundleID), .text(columns.kind),
                    .text(NotificationRequest.Recipients.encodeList(columns.values)), SQLiteValue(columns.detail),
                    .text(request.pushType.rawValue), SQLiteValue(request.priority?.rawValue),
                    SQLiteValue(request.expiration?.unixSeconds), SQLiteValue(request.collapseID?.value),
                    .blob(request.payload), .text(request.environment.rawValue), SQLiteValue(request.sendAt),
                    SQLiteValue(request.idempotencyKey), .text(state.rawValue), .integer(now),
                ])
            let notification = StoredNotification(
                id: id, request: request, state: state, createdAt: now, recipients: 0, expanded: false)
            let recipients = try Self.countRecipients(request.to, bundleID: request.bundleID, in: database)
            return NotificationCreation(notification: notification, created: true, recipients: recipients)
        }
    }

    /// How many recipients `to` (without repeats) has now, by the rules expansion follows: active
    /// devices and tokens only, a device with two of the tags once, a given token unless the app
    /// knows it as not active.
    static func countRecipients(_ to: NotificationRequest.Recipients, bundleID: String, in database: SQLiteDatabase)
        throws -> Int
    {
        let columns = to.columns
        guard columns.kind != "channel" else { return 1 }
        var parameters: [SQLiteValue] = [
            .text(bundleID), .text(NotificationRequest.Recipients.encodeList(columns.values)),
        ]
        if let detail = columns.detail { parameters.append(.text(detail)) }
        let count = try database.query(recipientCountSQL(columns.kind), parameters) { $0.int(0) ?? 0 }.first ?? 0
        return columns.kind == "tokens" ? columns.values.count - count : count
    }

    /// The query that counts the recipients of `kind` at creation: parameters ?1 bundle id, ?2 the
    /// JSON list, ?3 the attributes type (push-to-start). For tokens it counts the listed tokens the
    /// app knows as not active (the others are all recipients). Lists are looked up by index, one
    /// entry at a time; tags read the app's devices (a tag may cover them all). A test checks the plans.
    static func recipientCountSQL(_ kind: String) -> String {
        switch kind {
        case "tokens":
            """
            SELECT count(*) FROM json_each(?2) v
                CROSS JOIN devices d ON d.bundle_id = ?1 AND d.token = v.value WHERE d.status != 'active'
            """
        case "tags":
            """
            SELECT count(*) FROM devices d WHERE d.bundle_id = ?1 AND d.status = 'active'
                AND EXISTS (SELECT 1 FROM device_tags t WHERE t.device_seq = d.seq
                            AND t.tag IN (SELECT value FROM json_each(?2)))
            """
        case "users":
            """
            SELECT count(*) FROM json_each(?2) u
                CROSS JOIN devices d ON d.bundle_id = ?1 AND d.user_id = u.value WHERE d.status = 'active'
            """
        case "push-to-start":
            """
            SELECT count(*) FROM json_each(?2) u
                CROSS JOIN push_to_start_tokens d ON d.bundle_id = ?1 AND d.user_id = u.value
                    AND d.attributes_type = ?3
                WHERE d.status = 'active'
            """
        default:
            """
            SELECT count(*) FROM activity_tokens
                WHERE bundle_id = ?1 AND activity_id = (SELECT value FROM json_each(?2)) AND status = 'active'
            """
        }
    }

    public func notification(id: NotificationID) async throws(GatewayStoreError) -> StoredNotification? {
        try await withDatabase { database in try Self.notifications(where: "id = ?", [.text(id)], in: database).first }
    }

    public func notifications(bundleID: String, before cursor: Int?, limit: Int) async throws(GatewayStoreError)
        -> NotificationPage
    {
        try await withDatabase { database in
            let limit = StoreLimits.clamp(limit)
            // One row more than asked says whether there is a next page. The primary key walked
            // backwards, rows of other apps skipped: a console's page, not a hot path.
            let seqs = try database.query(
                "SELECT seq FROM notifications WHERE bundle_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?",
                [.text(bundleID), .integer(cursor ?? Int(Int64.max)), .integer(limit + 1)]
            ) { $0.int(0) ?? 0 }
            let page = Array(seqs.prefix(limit))
            guard let oldest = page.last, let newest = page.first else {
                return NotificationPage(notifications: [], nextCursor: nil)
            }
            let notifications = try Self.notifications(
                where: "bundle_id = ? AND seq BETWEEN ? AND ? ORDER BY seq DESC",
                [.text(bundleID), .integer(oldest), .integer(newest)], in: database)
            return NotificationPage(notifications: notifications, nextCursor: seqs.count > limit ? oldest : nil)
        }
    }

    public func startDueNotifications(now: Int, limit: Int) async throws(GatewayStoreError) -> [NotificationID] {
        // PostgreSQL: the inner SELECT takes FOR UPDATE SKIP LOCKED, so one process starts each.
        try await withDatabase { database in
            try database.query(
                """
                UPDATE notifications SET state = 'sending'
                    WHERE seq IN (SELECT seq FROM notifications WHERE state = 'scheduled' AND send_at <= ?
                                  ORDER BY send_at LIMIT ?)
                    RETURNING id
                """, [.integer(now), .integer(StoreLimits.clamp(limit))]
            ) { $0.string(0) ?? "" }
        }
    }

    public func notificationsToExpand(limit: Int) async throws(GatewayStoreError) -> [NotificationID] {
        try await withDatabase { database in
            try database.query(
                "SELECT id FROM notifications WHERE state = 'sending' AND expanded = 0 ORDER BY seq LIMIT ?",
                [.integer(StoreLimits.clamp(limit))]
            ) { $0.string(0) ?? "" }
        }
    }

    public func counts(id: NotificationID) async throws(GatewayStoreError) -> NotificationCounts {
        try await withDatabase { database in try Self.counts(id: id, in: database) }
    }

    public func cancelNotification(id: NotificationID, now: Int) async throws(GatewayStoreError) -> StoredNotification {
        try await inTransaction { database in
            guard var notification = try Self.notifications(where: "id = ?", [.text(id)], in: database).first else {
                throw GatewayStoreError.unknownNotification(id)
            }
            guard notification.state == .scheduled || notification.state == .sending else { return notification }
            try database.run(
                "UPDATE deliveries SET status = 'cancelled', claimed_by = NULL, claimed_until = NULL "
                    + "WHERE notification_seq = (SELECT seq FROM notifications WHERE id = ?) AND status = 'pending'",
                [.text(id)])
            // A chunk's members without a row are pending too: the chunk goes, so it is not claimed
            // again, and outcomes still coming for it are ignored (`recordChunkOutcomes`).
            try database.run(
                "DELETE FROM delivery_chunks WHERE notification_seq = (SELECT seq FROM notifications WHERE id = ?)",
                [.text(id)])
            try database.run(
                """
                UPDATE notifications SET state = 'cancelled', cancelled = cancelled + pending, pending = 0
                    WHERE id = ?
                """, [.text(id)])
            notification.state = .cancelled
            return notification
        }
    }

    static func counts(id: NotificationID, in database: SQLiteDatabase) throws -> NotificationCounts {
        let totals = try database.select(
            "SELECT succeeded, failed, pending, cancelled FROM notifications WHERE id = ?", [.text(id)],
            table: "notifications"
        ) { row throws(GatewayStoreError) in
            NotificationCounts(
                succeeded: try row.int(0, "succeeded"), failed: try row.int(1, "failed"),
                pending: try row.int(2, "pending"),
                cancelled: try row.int(3, "cancelled"))
        }
        guard var counts = totals.first else { throw GatewayStoreError.unknownNotification(id) }
        // The reasons are read from the notification's rows: skipped when none failed, so that
        // polling a large fan-out in progress does not walk all its rows on the store's thread.
        guard counts.failed > 0 else { return counts }
        let reasons = try database.query(
            """
            SELECT reason, count(*) FROM deliveries
                WHERE notification_seq = (SELECT seq FROM notifications WHERE id = ?) AND status = 'failed'
                    AND reason IS NOT NULL GROUP BY reason
            """, [.text(id)]
        ) { ($0.string(0) ?? "", $0.int(1) ?? 0) }
        counts.byReason = Dictionary(reasons, uniquingKeysWith: +)
        return counts
    }

    static func notifications(where condition: String, _ values: [SQLiteValue], in database: SQLiteDatabase) throws
        -> [StoredNotification]
    {
        try database.select(
            "SELECT \(notificationColumns) FROM notifications WHERE \(condition)", values, table: "notifications"
        ) { row throws(GatewayStoreError) in
            let kind = try row.string(2, "to_kind")
            let list = try row.string(3, "to_values")
            guard let values = NotificationRequest.Recipients.decodeList(list),
                let to = NotificationRequest.Recipients(kind: kind, values: values, detail: row.optionalString(4))
            else { throw row.corrupt("to_values", list) }
            let priority = try row.optionalInt(6).map { value throws(GatewayStoreError) in
                guard let priority = Priority(rawValue: value) else { throw row.corrupt("priority", "\(value)") }
                return priority
            }
            let collapseID = try row.optionalString(8).map { text throws(GatewayStoreError) in
                do { return try CollapseID(text) } catch { throw row.corrupt("collapse_id", text) }
            }
            let request = NotificationRequest(
                bundleID: try row.string(1, "bundle_id"), to: to, pushType: try row.value(5, "push_type"),
                priority: priority,
                expiration: row.optionalInt(7).map { $0 == 0 ? .immediately : .at(unixSeconds: $0) },
                collapseID: collapseID, payload: try row.bytes(9, "payload"), sendAt: row.optionalInt(11),
                idempotencyKey: row.optionalString(12), environment: try row.value(10, "environment"))
            return StoredNotification(
                id: try row.string(0, "id"), request: request, state: try row.value(13, "state"),
                createdAt: try row.int(14, "created_at"), recipients: try row.int(15, "recipients"),
                expanded: try row.int(16, "expanded") != 0)
        }
    }
}
