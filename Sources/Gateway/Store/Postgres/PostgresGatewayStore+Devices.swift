import APNs
import Postgres

extension PostgresGatewayStore {
    static let deviceColumns =
        "seq, bundle_id, token, environment, user_id, locale, app_version, registered_at, status, status_reason"

    public func upsertDevice(_ registration: DeviceRegistration, now: Int) async throws(GatewayStoreError) -> Device {
        try await inTransaction { connection in
            try Self.upsert(registration, now: now, in: connection)
            return Device(registration: registration, registeredAt: now)
        }
    }

    public func device(bundleID: String, token: DeviceToken) async throws(GatewayStoreError) -> Device? {
        try await withConnection { connection in
            try Self.devices(
                where: "bundle_id = $1 AND token = $2", [.text(bundleID), .text(token.hex)], in: connection
            ).first
        }
    }

    public func deleteDevice(bundleID: String, token: DeviceToken) async throws(GatewayStoreError) -> Bool {
        try await withConnection { connection in
            try connection.run(
                "DELETE FROM devices WHERE bundle_id = $1 AND token = $2", [.text(bundleID), .text(token.hex)]) > 0
        }
    }

    public func devices(bundleID: String, user: String) async throws(GatewayStoreError) -> [Device] {
        try await withConnection { connection in
            try Self.devices(where: "bundle_id = $1 AND user_id = $2", [.text(bundleID), .text(user)], in: connection)
        }
    }

    /// One transaction of three statements whatever the batch's size: the devices in one multi-row
    /// upsert over `unnest` of arrays, then their tags dropped and inserted. A token given twice in
    /// the batch keeps its last registration, as one upsert after another would (an `ON CONFLICT`
    /// statement cannot change a row twice).
    /// Fresh statistics for the tables an import filled: without them the planner takes a table
    /// imported moments ago for a few rows and plans a fan-out's chunks as full scans and sorts
    /// (40 ms a chunk at 50,000 devices instead of under one), until autovacuum gets to it.
    public func finishImport() async throws(GatewayStoreError) {
        try await withConnection { connection in _ = try connection.run("ANALYZE devices, device_tags") }
    }

    public func importDevices(_ batch: [DeviceRegistration], now: Int) async throws(GatewayStoreError) {
        var last: [DeviceKey: Int] = [:]
        for (index, registration) in batch.enumerated() {
            last[DeviceKey(bundleID: registration.bundleID, token: registration.token.hex)] = index
        }
        let registrations = batch.indices.filter { index in
            last[DeviceKey(bundleID: batch[index].bundleID, token: batch[index].token.hex)] == index
        }.map { batch[$0] }
        guard !registrations.isEmpty else { return }
        try await inTransaction { connection in
            let rows = try connection.select(
                """
                INSERT INTO devices (bundle_id, token, environment, user_id, locale, app_version, registered_at, status)
                    SELECT b, t, e, u, l, v, $1, 'active'
                        FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
                            WITH ORDINALITY AS r(b, t, e, u, l, v, n)
                        ORDER BY n
                    ON CONFLICT (bundle_id, token) DO UPDATE SET
                        environment = excluded.environment, user_id = excluded.user_id, locale = excluded.locale,
                        app_version = excluded.app_version, registered_at = excluded.registered_at,
                        status = 'active', status_reason = NULL
                    RETURNING seq, bundle_id, token
                """,
                [
                    PostgresValue(now), .textArray(registrations.map(\.bundleID)),
                    .textArray(registrations.map(\.token.hex)), .textArray(registrations.map(\.environment.rawValue)),
                    .optionalTextArray(registrations.map(\.user)), .optionalTextArray(registrations.map(\.locale)),
                    .optionalTextArray(registrations.map(\.appVersion)),
                ], table: "devices"
            ) { row throws(GatewayStoreError) in
                (
                    DeviceKey(bundleID: try row.string(1, "bundle_id"), token: try row.string(2, "token")),
                    Int64(try row.int(0, "seq"))
                )
            }
            let seqs = Dictionary(rows, uniquingKeysWith: { first, _ in first })
            try connection.run(
                "DELETE FROM device_tags WHERE device_seq = ANY($1)", [.bigintArray(Array(seqs.values))])
            var tagSeqs: [Int64] = []
            var tags: [String] = []
            for registration in registrations {
                guard let seq = seqs[DeviceKey(bundleID: registration.bundleID, token: registration.token.hex)]
                else { continue }
                for tag in Set(registration.tags) {
                    tagSeqs.append(seq)
                    tags.append(tag)
                }
            }
            if !tags.isEmpty {
                try connection.run(
                    "INSERT INTO device_tags (device_seq, tag) SELECT * FROM unnest($1::bigint[], $2::text[])",
                    [.bigintArray(tagSeqs), .textArray(tags)])
            }
        }
    }

    public func deviceCounts(bundleID: String) async throws(GatewayStoreError) -> [TokenStatus: Int] {
        try await withConnection { connection in
            let rows = try connection.select(
                "SELECT status, count(*) FROM devices WHERE bundle_id = $1 GROUP BY status", [.text(bundleID)],
                table: "devices"
            ) { row throws(GatewayStoreError) in
                (try row.value(0, "status", as: TokenStatus.self), try row.int(1, "count"))
            }
            return Dictionary(rows, uniquingKeysWith: +)
        }
    }

    /// Inserts or refreshes one device and replaces its tags; in the caller's transaction.
    static func upsert(_ registration: DeviceRegistration, now: Int, in connection: PostgresConnection) throws {
        let rows = try connection.query(
            """
            INSERT INTO devices (bundle_id, token, environment, user_id, locale, app_version, registered_at, status)
                VALUES ($1, $2, $3, $4, $5, $6, $7, 'active')
                ON CONFLICT (bundle_id, token) DO UPDATE SET
                    environment = excluded.environment, user_id = excluded.user_id, locale = excluded.locale,
                    app_version = excluded.app_version, registered_at = excluded.registered_at,
                    status = 'active', status_reason = NULL
                RETURNING seq
            """,
            [
                .text(registration.bundleID), .text(registration.token.hex), .text(registration.environment.rawValue),
                PostgresValue(registration.user), PostgresValue(registration.locale),
                PostgresValue(registration.appVersion), PostgresValue(now),
            ])
        guard let seq = try rows.first?.int(0) else {
            throw PostgresError(operation: "upsert", message: "the device's INSERT returned no seq")
        }
        // One statement for the tags whatever their number: drop the old ones, insert the new ones.
        try connection.run(
            """
            WITH dropped AS (DELETE FROM device_tags WHERE device_seq = $1)
            INSERT INTO device_tags (device_seq, tag) SELECT $1, tag FROM unnest($2::text[]) AS tag
            """,
            [.bigint(Int64(seq)), .textArray(registration.tags)])
    }

    /// The devices matching `condition` in registration order, each with its tags (two queries).
    static func devices(where condition: String, _ values: [PostgresValue], in connection: PostgresConnection) throws
        -> [Device]
    {
        let rows = try connection.select(
            "SELECT \(deviceColumns) FROM devices WHERE \(condition) ORDER BY seq", values, table: "devices"
        ) { row throws(GatewayStoreError) in
            let registration = DeviceRegistration(
                bundleID: try row.string(1, "bundle_id"), token: try row.token(2, "token"),
                environment: try row.value(3, "environment"), user: try row.optionalString(4, "user_id"),
                locale: try row.optionalString(5, "locale"), appVersion: try row.optionalString(6, "app_version"))
            let device = Device(
                registration: registration, registeredAt: try row.int(7, "registered_at"),
                status: try row.value(8, "status"), statusReason: try row.optionalString(9, "status_reason"))
            return (try row.int(0, "seq"), device)
        }
        guard !rows.isEmpty else { return [] }
        let tags = try connection.select(
            "SELECT device_seq, tag FROM device_tags WHERE device_seq IN (SELECT seq FROM devices WHERE \(condition))",
            values, table: "device_tags"
        ) { row throws(GatewayStoreError) in (try row.int(0, "device_seq"), try row.string(1, "tag")) }
        let tagsBySeq = Dictionary(grouping: tags, by: \.0).mapValues { $0.map(\.1).sorted() }
        return rows.map { seq, device in
            var device = device
            device.registration.tags = tagsBySeq[seq] ?? []
            return device
        }
    }
}

/// A device's identity in the store: its app and token (hex).
private struct DeviceKey: Hashable {
    var bundleID: String
    var token: String
}
