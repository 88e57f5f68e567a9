// What hangs on a device besides its tokens: the notifications waiting for it while it is offline
// (one per device, app and channel; '' stands for "no channel", a device push) and its channel
// subscriptions. Both go with the device (ON DELETE CASCADE).
import Storage

extension SQLiteEmulatorStore {
    private static let notificationColumns = """
        device_id, bundle_id, channel_id, apns_id, token, topic, push_type, priority, collapse_id, expiration, \
        payload, stored_at, expires_at
        """

    public func storeNotification(_ notification: StoredNotification) throws(EmulatorStoreError) {
        try withDatabase { database in
            try database.transaction {
                try Self.requireDevice(notification.deviceID, database)
                try database.run(
                    """
                    INSERT OR REPLACE INTO stored_notifications (\(Self.notificationColumns))
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(notification.deviceID), .text(notification.bundleID),
                        .text(notification.channelID ?? ""), .text(notification.apnsID), .text(notification.token),
                        .text(notification.topic), .text(notification.pushType), .integer(notification.priority),
                        SQLiteValue(notification.collapseID), SQLiteValue(notification.expiration),
                        .blob(notification.payload), .integer(notification.storedAt),
                        .integer(notification.expiresAt),
                    ])
            }
        }
    }

    public func storedNotifications(ofDevice deviceID: String) throws(EmulatorStoreError) -> [StoredNotification] {
        try withDatabase { database in
            try database.query(
                "SELECT \(Self.notificationColumns) FROM stored_notifications WHERE device_id = ? ORDER BY stored_at",
                [.text(deviceID)]
            ) { row in
                StoredNotification(
                    deviceID: row.string(0) ?? "", bundleID: row.string(1) ?? "",
                    channelID: row.string(2).flatMap { $0.isEmpty ? nil : $0 }, apnsID: row.string(3) ?? "",
                    token: row.string(4) ?? "", topic: row.string(5) ?? "", pushType: row.string(6) ?? "",
                    priority: row.int(7) ?? 0, collapseID: row.string(8), expiration: row.int(9),
                    payload: row.bytes(10) ?? [], storedAt: row.int(11) ?? 0, expiresAt: row.int(12) ?? 0)
            }
        }
    }

    public func deleteStoredNotifications(ofDevice deviceID: String) throws(EmulatorStoreError) -> Int {
        try withDatabase { database in
            try database.run("DELETE FROM stored_notifications WHERE device_id = ?", [.text(deviceID)])
        }
    }

    public func deleteExpiredNotifications(now: Int) throws(EmulatorStoreError) -> Int {
        try withDatabase { database in
            try database.run("DELETE FROM stored_notifications WHERE expires_at <= ?", [.integer(now)])
        }
    }

    // MARK: - Subscriptions

    public func subscribe(_ subscription: StoredSubscription) throws(EmulatorStoreError) {
        try withDatabase { database in
            try database.transaction {
                try Self.requireDevice(subscription.deviceID, database)
                try database.run(
                    """
                    INSERT OR IGNORE INTO subscriptions (device_id, bundle_id, channel_id, subscribed_at)
                        VALUES (?, ?, ?, ?)
                    """,
                    [
                        .text(subscription.deviceID), .text(subscription.bundleID), .text(subscription.channelID),
                        .integer(subscription.subscribedAt),
                    ])
            }
        }
    }

    public func subscriptions(ofDevice deviceID: String) throws(EmulatorStoreError) -> [StoredSubscription] {
        try withDatabase { database in
            try database.query(
                "SELECT device_id, bundle_id, channel_id, subscribed_at FROM subscriptions WHERE device_id = ? ORDER BY seq",
                [.text(deviceID)]
            ) { row in
                StoredSubscription(
                    deviceID: row.string(0) ?? "", bundleID: row.string(1) ?? "", channelID: row.string(2) ?? "",
                    subscribedAt: row.int(3) ?? 0)
            }
        }
    }
}
