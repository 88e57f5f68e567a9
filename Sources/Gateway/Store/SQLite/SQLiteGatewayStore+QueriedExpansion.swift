// Expansion of the recipients a query finds (tags, users, push-to-start): one INSERT ... SELECT per
// chunk, which reads the next recipients by the cursor, makes their rows with fresh apns-ids and
// returns them, without a round trip between Swift and SQLite per row. The apns-id is 16 bytes
// drawn from SQLite's generator (ChaCha20, seeded by the system), fixed in the row
// (`SQLiteAPNsID`: the UUID is those bytes with version 4's bits set).
import APNs
import Storage

extension SQLiteGatewayStore {
    /// Kinds whose recipients `expansionSQL` selects.
    static func isQueried(_ kind: String) -> Bool { kind == "tags" || kind == "users" || kind == "push-to-start" }

    /// Makes the rows of the next recipients of a queried kind: parameters ?1-?5 as `expansionSQL`,
    /// ?6 the notification seq, ?7 the rows' kind, ?8 next-attempt-at, ?9 claimed-by, ?10
    /// claimed-until.
    static func insertQueriedSQL(_ kind: String) -> String {
        """
        INSERT INTO deliveries (notification_seq, kind, recipient, environment, apns_id, status, next_attempt_at,
            claimed_by, claimed_until)
            SELECT ?6, ?7, r.token, r.environment, randomblob(16), 'pending', ?8, ?9, ?10
                FROM (\(expansionSQL(kind))) r ORDER BY r.seq
            RETURNING seq, recipient, environment, apns_id
        """
    }

    /// One chunk of a queried kind: rows made, the cursor after them (the last recipient's seq),
    /// whether none are left; with a lease, the rows are made claimed by it and returned.
    static func insertQueriedChunk(
        id: NotificationID, seq: Int, kind: String, list: String, detail: String?, bundleID: String, after cursor: Int,
        limit: Int, lease: Lease?, now: Int, in database: SQLiteDatabase
    ) throws -> (count: Int, cursor: Int, finished: Bool, made: [Delivery]) {
        let (table, rowKind): (String, Delivery.Kind) =
            kind == "push-to-start" ? ("push_to_start_tokens", .pushToStart) : ("devices", .device)
        let parameters: [SQLiteValue] = [
            .text(bundleID), .integer(cursor), .text(list), .integer(limit), SQLiteValue(detail), .integer(seq),
            .text(rowKind.rawValue), .integer(lease?.until ?? now), SQLiteValue(lease?.claimer),
            SQLiteValue(lease?.until),
        ]
        var rows = try database.select(insertQueriedSQL(kind), parameters, table: "deliveries") {
            row throws(GatewayStoreError) in
            guard let apnsID = SQLiteAPNsID.read(row.statement.value(3)) else {
                throw row.corrupt("apns_id", "\(row.statement.value(3))")
            }
            return Delivery(
                id: try row.int(0, "seq"), notificationID: id, kind: rowKind, recipient: try row.string(1, "recipient"),
                environment: try row.value(2, "environment"), apnsID: apnsID, nextAttemptAt: lease?.until ?? now,
                claimedBy: lease?.claimer, claimedUntil: lease?.until)
        }
        // RETURNING's order is SQLite's to choose; the rows were inserted in recipient order.
        rows.sort { $0.id < $1.id }
        guard let last = rows.last else { return (0, cursor, true, []) }
        // The cursor is the last recipient's seq in its own table, found by its unique token.
        let next =
            try database.query(
                "SELECT seq FROM \(table) WHERE bundle_id = ? AND token = ?", [.text(bundleID), .text(last.recipient)]
            ) { $0.int(0) }.first ?? nil
        guard let next else {
            throw GatewayStoreError.corrupt(table: table, column: "token", value: last.recipient)
        }
        return (rows.count, next, rows.count < limit, lease == nil ? [] : rows)
    }
}
