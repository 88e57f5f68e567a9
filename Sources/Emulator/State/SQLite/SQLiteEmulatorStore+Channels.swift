import APNs
import Storage

extension SQLiteEmulatorStore {
    public func insertChannel(_ channel: StoredChannel) throws(EmulatorStoreError) {
        try withDatabase { database in
            try database.transaction {
                let issued = try database.query("SELECT 1 FROM channel_ids WHERE id = ?", [.text(channel.id.value)]) {
                    $0.int(0)
                }
                guard issued.isEmpty else { throw EmulatorStoreError.channelIDIssued(channel.id.value) }
                try database.run("INSERT INTO channel_ids (id) VALUES (?)", [.text(channel.id.value)])
                try database.run(
                    "INSERT INTO channels (id, bundle_id, storage_policy, created_at) VALUES (?, ?, ?, ?)",
                    [
                        .text(channel.id.value), .text(channel.bundleID), .integer(channel.policy.rawValue),
                        .integer(channel.createdAt),
                    ])
            }
        }
    }

    public func deleteChannel(bundleID: String, id: ChannelID) throws(EmulatorStoreError) -> Bool {
        // Subscriptions and the stored broadcast go with it (ON DELETE CASCADE); channel_ids keeps the id.
        try withDatabase { database in
            try database.run("DELETE FROM channels WHERE id = ? AND bundle_id = ?", [.text(id.value), .text(bundleID)])
                > 0
        }
    }

    public func liveChannels() throws(EmulatorStoreError) -> [StoredChannel] {
        let rows = try withDatabase { database in
            try database.query("SELECT id, bundle_id, storage_policy, created_at FROM channels ORDER BY seq") {
                ($0.string(0) ?? "", $0.string(1) ?? "", $0.int(2) ?? -1, $0.int(3) ?? 0)
            }
        }
        var channels: [StoredChannel] = []
        for (id, bundleID, policy, createdAt) in rows {
            guard let policy = MessageStoragePolicy(rawValue: policy) else {
                throw .corrupt(table: "channels", column: "storage_policy", value: String(policy))
            }
            channels.append(
                StoredChannel(
                    bundleID: bundleID, id: try Self.channelID(id, "channels"), policy: policy, createdAt: createdAt))
        }
        return channels
    }

    public func issuedChannelIDs() throws(EmulatorStoreError) -> Set<ChannelID> {
        let ids = try withDatabase { database in try database.query("SELECT id FROM channel_ids") { $0.string(0) ?? "" }
        }
        var issued = Set<ChannelID>()
        for id in ids { issued.insert(try Self.channelID(id, "channel_ids")) }
        return issued
    }

    // MARK: - Subscriptions

    public func subscribe(deviceID: String, channel: ChannelID, at milliseconds: Int) throws(EmulatorStoreError) {
        try withDatabase { database in
            try database.transaction {
                try Self.requireDevice(deviceID, database)
                try Self.requireChannel(channel, database)
                try database.run(
                    "INSERT OR IGNORE INTO subscriptions (device_id, channel_id, subscribed_at) VALUES (?, ?, ?)",
                    [.text(deviceID), .text(channel.value), .integer(milliseconds)])
            }
        }
    }

    public func unsubscribe(deviceID: String, channel: ChannelID) throws(EmulatorStoreError) -> Bool {
        try withDatabase { database in
            try database.run(
                "DELETE FROM subscriptions WHERE device_id = ? AND channel_id = ?",
                [.text(deviceID), .text(channel.value)]
            ) > 0
        }
    }

    public func subscribers(of channel: ChannelID) throws(EmulatorStoreError) -> [String] {
        try withDatabase { database in
            try database.query(
                "SELECT device_id FROM subscriptions WHERE channel_id = ? ORDER BY seq", [.text(channel.value)]
            ) {
                $0.string(0) ?? ""
            }
        }
    }

    public func subscriptions(ofDevice deviceID: String) throws(EmulatorStoreError) -> [ChannelID] {
        let ids = try withDatabase { database in
            try database.query(
                "SELECT channel_id FROM subscriptions WHERE device_id = ? ORDER BY seq", [.text(deviceID)]
            ) {
                $0.string(0) ?? ""
            }
        }
        var channels: [ChannelID] = []
        for id in ids { channels.append(try Self.channelID(id, "subscriptions")) }
        return channels
    }

    // MARK: - Stored broadcasts

    public func storeBroadcast(_ broadcast: StoredBroadcast) throws(EmulatorStoreError) {
        try withDatabase { database in
            try database.transaction {
                try Self.requireChannel(broadcast.channel, database)
                try database.run(
                    """
                    INSERT OR REPLACE INTO stored_broadcasts (channel_id, request_id, priority, payload, stored_at, expires_at)
                        VALUES (?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(broadcast.channel.value), .text(broadcast.requestID), .integer(broadcast.priority),
                        .blob(broadcast.payload), .integer(broadcast.storedAt), .integer(broadcast.expiresAt),
                    ])
            }
        }
    }

    public func storedBroadcast(channel: ChannelID, now: Int) throws(EmulatorStoreError) -> StoredBroadcast? {
        try withDatabase { database in
            try database.query(
                """
                SELECT request_id, priority, payload, stored_at, expires_at FROM stored_broadcasts
                    WHERE channel_id = ? AND expires_at > ?
                """, [.text(channel.value), .integer(now)]
            ) { row in
                StoredBroadcast(
                    channel: channel, requestID: row.string(0) ?? "", priority: row.int(1) ?? 0,
                    payload: row.bytes(2) ?? [],
                    storedAt: row.int(3) ?? 0, expiresAt: row.int(4) ?? 0)
            }.first
        }
    }

    public func deleteExpiredBroadcasts(now: Int) throws(EmulatorStoreError) -> Int {
        try withDatabase { database in
            try database.run("DELETE FROM stored_broadcasts WHERE expires_at <= ?", [.integer(now)])
        }
    }

    // MARK: - Helpers

    static func channelID(_ text: String, _ table: String) throws(EmulatorStoreError) -> ChannelID {
        guard let id = try? ChannelID(text) else { throw .corrupt(table: table, column: "id", value: text) }
        return id
    }

    static func requireDevice(_ id: String, _ database: SQLiteDatabase) throws {
        guard try !database.query("SELECT 1 FROM devices WHERE id = ?", [.text(id)], row: { $0.int(0) }).isEmpty else {
            throw EmulatorStoreError.unknownDevice(id)
        }
    }

    static func requireChannel(_ channel: ChannelID, _ database: SQLiteDatabase) throws {
        guard
            try !database.query("SELECT 1 FROM channels WHERE id = ?", [.text(channel.value)], row: { $0.int(0) })
                .isEmpty
        else { throw EmulatorStoreError.unknownChannel(channel.value) }
    }
}
