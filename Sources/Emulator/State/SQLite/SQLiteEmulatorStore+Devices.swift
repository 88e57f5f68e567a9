import Storage

extension SQLiteEmulatorStore {
    private static let deviceColumns = "id, token, bundle_id, environment, created_at"

    public func insertDevice(_ device: StoredDevice) throws(EmulatorStoreError) {
        try withDatabase { database in
            try database.transaction {
                if try !database.query("SELECT 1 FROM devices WHERE id = ?", [.text(device.id)], row: { $0.int(0) })
                    .isEmpty
                {
                    throw EmulatorStoreError.deviceExists(device.id)
                }
                if try !database.query(
                    "SELECT 1 FROM devices WHERE token = ?", [.text(device.token)], row: { $0.int(0) }
                )
                .isEmpty {
                    throw EmulatorStoreError.tokenInUse(device.token)
                }
                try database.run(
                    "INSERT INTO devices (\(Self.deviceColumns)) VALUES (?, ?, ?, ?, ?)",
                    [
                        .text(device.id), .text(device.token), .text(device.bundleID),
                        .text(device.environment.rawValue),
                        .integer(device.createdAt),
                    ])
            }
        }
    }

    public func device(id: String) throws(EmulatorStoreError) -> StoredDevice? {
        try devices(where: "WHERE id = ?", [.text(id)]).first
    }

    public func device(token: String) throws(EmulatorStoreError) -> StoredDevice? {
        try devices(where: "WHERE token = ?", [.text(token)]).first
    }

    public func devices() throws(EmulatorStoreError) -> [StoredDevice] {
        try devices(where: "", [])
    }

    public func deleteDevice(id: String) throws(EmulatorStoreError) -> Bool {
        // Activity tokens, stored notifications and subscriptions go with it (ON DELETE CASCADE).
        try withDatabase { database in try database.run("DELETE FROM devices WHERE id = ?", [.text(id)]) > 0 }
    }

    private func devices(where clause: String, _ values: [SQLiteValue]) throws(EmulatorStoreError) -> [StoredDevice] {
        let rows = try withDatabase { database in
            try database.query("SELECT \(Self.deviceColumns) FROM devices \(clause) ORDER BY seq", values) {
                ($0.string(0) ?? "", $0.string(1) ?? "", $0.string(2) ?? "", $0.string(3) ?? "", $0.int(4) ?? 0)
            }
        }
        var devices: [StoredDevice] = []
        for (id, token, bundleID, environment, createdAt) in rows {
            guard let environment = StoredDevice.Environment(rawValue: environment) else {
                throw .corrupt(table: "devices", column: "environment", value: environment)
            }
            devices.append(
                StoredDevice(id: id, token: token, bundleID: bundleID, environment: environment, createdAt: createdAt))
        }
        return devices
    }

    // MARK: - Activity tokens

    private static let tokenColumns = "token, device_id, kind, detail, created_at"

    public func insertActivityToken(_ token: StoredActivityToken) throws(EmulatorStoreError) {
        try withDatabase { database in
            try database.transaction {
                try Self.requireDevice(token.deviceID, database)
                if try !database.query(
                    "SELECT 1 FROM device_tokens WHERE token = ?", [.text(token.token)], row: { $0.int(0) }
                )
                .isEmpty {
                    throw EmulatorStoreError.tokenInUse(token.token)
                }
                try database.run(
                    "INSERT INTO device_tokens (\(Self.tokenColumns)) VALUES (?, ?, ?, ?, ?)",
                    [
                        .text(token.token), .text(token.deviceID), .text(token.kind.rawValue),
                        SQLiteValue(token.detail),
                        .integer(token.createdAt),
                    ])
            }
        }
    }

    public func activityToken(_ token: String) throws(EmulatorStoreError) -> StoredActivityToken? {
        try activityTokens(where: "WHERE token = ?", [.text(token)]).first
    }

    public func activityTokens(ofDevice deviceID: String) throws(EmulatorStoreError) -> [StoredActivityToken] {
        try activityTokens(where: "WHERE device_id = ?", [.text(deviceID)])
    }

    public func deleteActivityToken(_ token: String) throws(EmulatorStoreError) -> Bool {
        try withDatabase { database in try database.run("DELETE FROM device_tokens WHERE token = ?", [.text(token)]) > 0
        }
    }

    private func activityTokens(where clause: String, _ values: [SQLiteValue]) throws(EmulatorStoreError)
        -> [StoredActivityToken]
    {
        let rows = try withDatabase { database in
            try database.query("SELECT \(Self.tokenColumns) FROM device_tokens \(clause) ORDER BY seq", values) {
                ($0.string(0) ?? "", $0.string(1) ?? "", $0.string(2) ?? "", $0.string(3), $0.int(4) ?? 0)
            }
        }
        var tokens: [StoredActivityToken] = []
        for (token, deviceID, kind, detail, createdAt) in rows {
            guard let kind = StoredActivityToken.Kind(rawValue: kind) else {
                throw .corrupt(table: "device_tokens", column: "kind", value: kind)
            }
            tokens.append(
                StoredActivityToken(token: token, deviceID: deviceID, kind: kind, detail: detail, createdAt: createdAt))
        }
        return tokens
    }
}
