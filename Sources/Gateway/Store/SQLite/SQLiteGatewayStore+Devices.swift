import APNs
import Storage

extension SQLiteGatewayStore {
    static let deviceColumns =
        "seq, bundle_id, token, environment, user_id, locale, app_version, registered_at, status, status_reason"

    public func upsertDevice(_ registration: DeviceRegistration, now: Int) async throws(GatewayStoreError) -> Device {
        try await inTransaction { database in
            try Self.upsert(registration, now: now, in: database)
            return Device(registration: registration, registeredAt: now)
        }
    }

    public func device(bundleID: String, token: DeviceToken) async throws(GatewayStoreError) -> Device? {
        try await withDatabase { database in
            try Self.devices(where: "bundle_id = ? AND token = ?", [.text(bundleID), .text(token.hex)], in: database)
                .first
        }
    }

    public func deleteDevice(bundleID: String, token: DeviceToken) async throws(GatewayStoreError) -> Bool {
        try await withDatabase { database in
            try database.run(
                "DELETE FROM devices WHERE bundle_id = ? AND token = ?", [.text(bundleID), .text(token.hex)]) > 0
        }
    }

    public func devices(bundleID: String, user: String) async throws(GatewayStoreError) -> [Device] {
        try await withDatabase { database in
            try Self.devices(
                where: "bundle_id = ? AND user_id = ? ORDER BY seq", [.text(bundleID), .text(user)], in: database)
        }
    }

    public func importDevices(_ batch: [DeviceRegistration], now: Int) async throws(GatewayStoreError) {
        try await inTransaction { database in
            for registration in batch { try Self.upsert(registration, now: now, in: database) }
        }
    }

    public func deviceCounts(bundleID: String) async throws(GatewayStoreError) -> [TokenStatus: Int] {
        try await withDatabase { database in
            let rows = try database.select(
                "SELECT status, count(*) FROM devices WHERE bundle_id = ? GROUP BY status", [.text(bundleID)],
                table: "devices"
            ) { row throws(GatewayStoreError) in
                (try row.value(0, "status", as: TokenStatus.self), try row.int(1, "count"))
            }
            return Dictionary(rows, uniquingKeysWith: +)
        }
    }

    /// Inserts or refreshes one device and replaces its tags; in the caller's transaction.
    static func upsert(_ registration: DeviceRegistration, now: Int, in database: SQLiteDatabase) throws {
        let seq =
            try database.query(
                """
                INSERT INTO devices (bundle_id, token, environment, user_id, locale, app_version, registered_at, status)
                    VALUES (?, ?, ?, ?, ?, ?, ?, 'active')
                    ON CONFLICT (bundle_id, token) DO UPDATE SET
                        environment = excluded.environment, user_id = excluded.user_id, locale = excluded.locale,
                        app_version = excluded.app_version, registered_at = excluded.registered_at,
                        status = 'active', status_reason = NULL
                    RETURNING seq
                """,
                [
                    .text(registration.bundleID), .text(registration.token.hex),
                    .text(registration.environment.rawValue),
                    SQLiteValue(registration.user), SQLiteValue(registration.locale),
                    SQLiteValue(registration.appVersion),
                    .integer(now),
                ]
            ) { $0.int(0) ?? 0 }.first ?? 0
        try database.run("DELETE FROM device_tags WHERE device_seq = ?", [.integer(seq)])
        for tag in registration.tags {
            try database.run("INSERT INTO device_tags (device_seq, tag) VALUES (?, ?)", [.integer(seq), .text(tag)])
        }
    }

    static func devices(where condition: String, _ values: [SQLiteValue], in database: SQLiteDatabase) throws
        -> [Device]
    {
        let rows = try database.select(
            "SELECT \(deviceColumns) FROM devices WHERE \(condition)", values, table: "devices"
        ) { row throws(GatewayStoreError) in
            let registration = DeviceRegistration(
                bundleID: try row.string(1, "bundle_id"), token: try row.token(2, "token"),
                environment: try row.value(3, "environment"), user: row.optionalString(4),
                locale: row.optionalString(5),
                appVersion: row.optionalString(6))
            let device = Device(
                registration: registration, registeredAt: try row.int(7, "registered_at"),
                status: try row.value(8, "status"), statusReason: row.optionalString(9))
            return (try row.int(0, "seq"), device)
        }
        return try rows.map { seq, device in
            var device = device
            device.registration.tags = try database.query(
                "SELECT tag FROM device_tags WHERE device_seq = ? ORDER BY tag", [.integer(seq)]
            ) { $0.string(0) ?? "" }
            return device
        }
    }
}
