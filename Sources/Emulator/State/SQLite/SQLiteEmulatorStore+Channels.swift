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
        // channel_ids keeps the id; devices' subscriptions and stored broadcasts stay (device records).
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

}
