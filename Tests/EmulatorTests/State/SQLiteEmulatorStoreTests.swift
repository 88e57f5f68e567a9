import APNs
import Emulator
import Foundation
import Storage
import Testing

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
        #expect(error.description.contains("version 99, newer than the 1 this Herald knows"), "\(error)")
    }

    @Test func reopeningKeepsTheSchemaAndItsVersion() throws {
        let fixture = try StoreFixture(.sqlite)
        defer { fixture.remove() }
        _ = try fixture.reopened()
        #expect(try SQLiteDatabase(path: fixture.path).userVersion == 1)
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
}
