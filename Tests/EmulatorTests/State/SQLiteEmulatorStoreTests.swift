import APNs
import Foundation
import Storage
import Testing

@testable import Emulator

/// What only the SQLite store can meet: files that are not its own, and rows changed behind its back.
@Suite(.timeLimit(.minutes(1)))
struct SQLiteEmulatorStoreTests {
    @Test func aFileThatIsNotADatabaseIsAClearError() throws {
        let fixture = try StoreFixture(.memory)
        defer { fixture.remove() }
        try Data(String(repeating: "garbage ", count: 512).utf8).write(to: URL(fileURLWithPath: fixture.path))
        let error = try #require(throws: SQLiteError.self) { try SQLiteEmulatorStore(path: fixture.path) }
        #expect(error.description.contains("file is not a database"), "\(error)")
    }

    @Test func aSchemaFromANewerHeraldIsRefused() throws {
        let fixture = try StoreFixture(.sqlite)
        defer { fixture.remove() }
        try SQLiteDatabase(path: fixture.path).execute("PRAGMA user_version = 99")
        let error = try #require(throws: SQLiteError.self) { try SQLiteEmulatorStore(path: fixture.path) }
        #expect(error.description.contains("version 99, newer than the 5 this Herald knows"), "\(error)")
    }

    @Test func reopeningKeepsTheSchemaAndItsVersion() throws {
        let fixture = try StoreFixture(.sqlite)
        defer { fixture.remove() }
        _ = try fixture.reopened()
        let database = try SQLiteDatabase(path: fixture.path)
        #expect(try database.userVersion == 5)
        #expect(try database.query("PRAGMA page_size") { $0.int(0) } == [SQLiteEmulatorStore.pageSize])
    }

    @Test(arguments: [
        ("UPDATE channels SET storage_policy = 7", "channels.storage_policy holds '7'"),
        ("UPDATE channels SET id = 'not base64!'", "channels.id holds 'not base64!'"),
    ])
    func aRowChangedOutsideHeraldIsNamed(_ sql: String, _ message: String) throws {
        let fixture = try StoreFixture(.sqlite)
        defer { fixture.remove() }
        var generator = SystemRandomNumberGenerator()
        try fixture.store.insertChannel(
            StoredChannel(bundleID: "com.example.app", id: .random(using: &generator), policy: .noStorage, createdAt: 0)
        )
        let database = try SQLiteDatabase(path: fixture.path)
        try database.execute("PRAGMA foreign_keys = OFF; PRAGMA ignore_check_constraints = ON; " + sql)
        let error = try #require(throws: EmulatorStoreError.self) { try fixture.reopened().liveChannels() }
        #expect(error.description.hasPrefix(message), "\(error)")
    }

    @Test func storageErrorsCarrySQLitesMessage() throws {
        let fixture = try StoreFixture(.sqlite)
        defer { fixture.remove() }
        try SQLiteDatabase(path: fixture.path).execute("DROP TABLE unregistered_tokens")
        let error = try #require(throws: EmulatorStoreError.self) { try fixture.store.markUnregistered("aa", at: 0) }
        guard case .storage(let underlying) = error else {
            Issue.record("expected a storage error, got \(error)")
            return
        }
        #expect(underlying.message.contains("no such table: unregistered_tokens"), "\(underlying)")
    }

    @Test func laterVersionsKeepWhatVersion1StoredForDevices() throws {
        let fixture = try StoreFixture(.memory)  // a directory only; the file is made by hand at version 1
        defer { fixture.remove() }
        let token = String(repeating: "0a", count: 32)
        let old = try SQLiteDatabase(path: fixture.path)
        try old.migrate(Array(SQLiteEmulatorStore.migrations.prefix(1)))
        try old.execute(
            """
            INSERT INTO devices (id, token, bundle_id, environment, created_at)
                VALUES ('phone', '\(token)', 'com.example.app', 'sandbox', 1);
            INSERT INTO channel_ids (id) VALUES ('Y2g=');
            INSERT INTO channels (id, bundle_id, storage_policy, created_at) VALUES ('Y2g=', 'com.example.app', 1, 2);
            INSERT INTO subscriptions (device_id, channel_id, subscribed_at) VALUES ('phone', 'Y2g=', 3);
            INSERT INTO stored_notifications (device_id, bundle_id, apns_id, push_type, priority, collapse_id, payload,
                stored_at, expires_at) VALUES ('phone', 'com.example.app', 'id-1', 'alert', 10, 'c', X'7B7D', 4, 5000);
            """)

        let store = try SQLiteEmulatorStore(path: fixture.path)
        #expect(try SQLiteDatabase(path: fixture.path).userVersion == 5)
        #expect(
            try store.storedNotifications(ofDevice: "phone") == [
                StoredNotification(
                    deviceID: "phone", bundleID: "com.example.app", apnsID: "id-1", token: token,
                    topic: "com.example.app", pushType: "alert", priority: 10, collapseID: "c", expiration: 5,
                    payload: Array("{}".utf8), storedAt: 4, expiresAt: 5000)
            ], "the device's token and app stand in for the token and topic version 1 did not keep")
        #expect(
            try store.subscriptions(ofDevice: "phone") == [
                StoredSubscription(deviceID: "phone", bundleID: "com.example.app", channelID: "Y2g=", subscribedAt: 3)
            ])
        #expect(try store.liveChannels().map(\.id.value) == ["Y2g="])
    }
}
