import APNs
import Foundation
import Storage
import Testing

@testable import Gateway

/// A database made by an older Herald opens and migrates: migration 2 keys deliveries by the
/// notification's seq and keeps apns-ids as 16 bytes, and every row reads back as it was.
@Suite(.timeLimit(.minutes(3)))
struct SQLiteGatewayMigrationTests {
    /// A version 4 id, which migration 2 stores as bytes.
    let version4 = "0f8fad5b-d9cb-469f-a165-70867728950e"
    /// A version 1 id, whose bytes would read back as another id: migration 2 leaves it as text.
    let version1 = "123e4567-e89b-12d3-a456-426655440000"

    @Test func aVersion1DatabaseMigratesAndReadsBackItsDeliveries() async throws {
        let scratch = try ScratchDirectory("herald-migration")
        defer { scratch.remove() }
        let path = scratch.storePath
        do {
            let old = try SQLiteDatabase(path: path)
            try old.migrate(Array(SQLiteGatewayStore.migrations.prefix(1)))
            try old.execute(
                """
                INSERT INTO notifications (id, bundle_id, to_kind, to_values, push_type, payload, environment, state,
                    created_at, expanded, recipients, pending, succeeded)
                    VALUES ('n-1', '\(bundleID)', 'tokens', '["aa"]', 'alert', X'7B7D', 'sandbox', 'sending', 1, 1, 2,
                        1, 1);
                INSERT INTO deliveries (notification_id, kind, recipient, environment, apns_id, status, attempts,
                    next_attempt_at, last_attempt_at, apns_unique_id)
                    VALUES ('n-1', 'device', 'aa', 'sandbox', '\(version4.uppercased())', 'succeeded', 1, 5, 5, 'u-1'),
                           ('n-1', 'device', 'bb', 'sandbox', '\(version1)', 'pending', 0, 7, NULL, NULL);
                """)
        }
        let store = try SQLiteGatewayStore(path: path)
        let page = try await store.deliveries(notificationID: "n-1", after: nil, limit: 10)
        #expect(page.deliveries.map(\.apnsID.value) == [version4, version1])
        #expect(page.deliveries.map(\.notificationID) == ["n-1", "n-1"])
        #expect(page.deliveries.map(\.recipient) == ["aa", "bb"])
        #expect(page.deliveries.map(\.status) == [.succeeded, .pending])
        #expect(page.deliveries.first?.apnsUniqueID == "u-1")
        let stored = try await store.withDatabase { database in
            try database.query("SELECT typeof(apns_id), notification_seq FROM deliveries ORDER BY seq") {
                "\($0.string(0) ?? "") \($0.int(1) ?? 0)"
            }
        }
        #expect(stored == ["blob 1", "text 1"])
        #expect(try await store.withDatabase { try $0.userVersion } == SQLiteGatewayStore.migrations.count)
        // The pending row is still claimed, sent and counted like any other.
        let claim = try await store.claimDeliveries(limit: 10, claimer: "w", leaseMilliseconds: 100, now: 10)
        #expect(claim.deliveries.map(\.apnsID.value) == [version1])
        #expect(claim.notifications["n-1"] != nil)
        try await store.recordOutcomes(
            [
                DeliveryOutcome(
                    deliveryID: try #require(claim.deliveries.first).id, result: .succeeded(apnsUniqueID: nil))
            ],
            backoff: DeliveryBackoff(), now: 11)
        let notification = try #require(try await store.notification(id: "n-1"))
        #expect(notification.state == .done)
        #expect(try await store.counts(id: "n-1").succeeded == 2)
    }

    @Test func aVersion3DatabaseInTheMiddleOfAFanOutFinishesItAfterMigration4() async throws {
        let scratch = try ScratchDirectory("herald-migration")
        defer { scratch.remove() }
        let path = scratch.storePath
        do {
            // Three tagged devices; the notification's first one expanded into a row claimed by "old".
            let old = try SQLiteDatabase(path: path)
            try old.migrate(Array(SQLiteGatewayStore.migrations.prefix(3)))
            try old.execute(
                """
                INSERT INTO devices (seq, bundle_id, token, environment, registered_at, status)
                    VALUES (1, '\(bundleID)', 'aa', 'sandbox', 1, 'active'), (2, '\(bundleID)', 'bb', 'sandbox', 1, 'active'),
                        (3, '\(bundleID)', 'cc', 'sandbox', 1, 'active');
                INSERT INTO device_tags (device_seq, tag) VALUES (1, 't'), (2, 't'), (3, 't');
                INSERT INTO notifications (seq, id, bundle_id, to_kind, to_values, push_type, payload, environment, state,
                    created_at, expansion_cursor, expanded, recipients, pending)
                    VALUES (1, 'n-1', '\(bundleID)', 'tags', '["t"]', 'alert', X'7B7D', 'sandbox', 'sending', 1, 1, 0, 1, 1);
                INSERT INTO deliveries (notification_seq, kind, recipient, environment, apns_id, status, attempts,
                    next_attempt_at, claimed_by, claimed_until)
                    VALUES (1, 'device', 'aa', 'sandbox', X'0F8FAD5BD9CB469FA16570867728950E', 'pending', 0, 50, 'old', 50);
                """)
        }
        let store = try SQLiteGatewayStore(path: path)
        #expect(try await store.withDatabase { try $0.userVersion } == SQLiteGatewayStore.migrations.count)
        // The rest is expanded by chunks, with apns-ids derived from the base migration 4 drew.
        let chunk = try await store.expandAndClaim(
            id: "n-1", chunkSize: 10, claimer: "new", leaseMilliseconds: 100, now: 10)
        #expect(chunk.progress.finished && chunk.claim.deliveries.map(\.recipient) == ["bb", "cc"])
        #expect(Set(chunk.claim.deliveries.map(\.apnsID)).count == 2)
        // The old row is claimed again once its lease runs out, with its own apns-id.
        #expect(
            try await store.claimDeliveries(limit: 10, claimer: "new", leaseMilliseconds: 100, now: 49).deliveries
                .isEmpty)
        let old = try await store.claimDeliveries(limit: 10, claimer: "new", leaseMilliseconds: 100, now: 50)
        #expect(old.deliveries.map(\.apnsID.value) == [version4])
        try await store.recordOutcomes(
            (chunk.claim.deliveries + old.deliveries).map {
                DeliveryOutcome($0, result: .succeeded(apnsUniqueID: nil))
            },
            backoff: DeliveryBackoff(), now: 60)
        #expect(try await store.notification(id: "n-1")?.state == .done)
        let counts = try await store.counts(id: "n-1")
        #expect(counts.succeeded == 3 && counts.pending == 0)
        let rows = try await store.deliveries(notificationID: "n-1", after: nil, limit: 10).deliveries
        #expect(rows.map(\.recipient) == ["aa", "bb", "cc"])
        #expect(rows.map(\.apnsID) == old.deliveries.map(\.apnsID) + chunk.claim.deliveries.map(\.apnsID))
    }

    @Test func aChunkMembersAPNsIDIsDerivedFromTheBaseAndItsCursor() throws {
        let base = (0..<16).map { _ in UInt8.random(in: 0...255) }
        let ids = try (0..<10_000).map { try #require(SQLiteChunkDelivery.apnsID(base: base, cursor: $0)) }
        #expect(Set(ids).count == ids.count, "distinct cursors, distinct ids")
        #expect(try (0..<10_000).map { try #require(SQLiteChunkDelivery.apnsID(base: base, cursor: $0)) } == ids)
        #expect(ids.allSatisfy { SQLiteAPNsID.read(.blob(SQLiteAPNsID.bytes($0))) == $0 }, "stored, read back")
        #expect(ids.allSatisfy { Array($0.value)[14] == "4" && "89ab".contains(Array($0.value)[19]) })
        // Carries cross bytes; the sum wraps within the last 6 bytes.
        let high = [UInt8](repeating: 0xFF, count: 16)
        #expect(SQLiteChunkDelivery.apnsID(base: high, cursor: 1)?.value == "ffffffff-ffff-4fff-bfff-000000000000")
        #expect(SQLiteChunkDelivery.apnsID(base: [1, 2], cursor: 1) == nil)
        let id = SQLiteChunkDelivery.id(chunk: 123_456, position: 9_999)
        #expect(id < 0 && SQLiteChunkDelivery.chunk(of: id) == 123_456 && SQLiteChunkDelivery.position(of: id) == 9_999)
        #expect(SQLiteChunkDelivery.chunk(of: 5) == nil)
    }

    @Test func storedBytesReadBackAsTheSameVersion4ID() throws {
        for _ in 0..<100 {
            let id = APNsID.random()
            let bytes = SQLiteAPNsID.bytes(id)
            #expect(bytes.count == 16)
            #expect(SQLiteAPNsID.read(.blob(bytes)) == id)
        }
        // Bytes drawn in SQL, whatever their version bits, read as a version 4 UUID, the same each time.
        let drawn: [UInt8] = Array(repeating: 0xFF, count: 16)
        let id = try #require(SQLiteAPNsID.read(.blob(drawn)))
        #expect(id.value == "ffffffff-ffff-4fff-bfff-ffffffffffff")
        #expect(SQLiteAPNsID.read(.blob(drawn)) == id)
        #expect(SQLiteAPNsID.read(.blob([1, 2, 3])) == nil)
        #expect(SQLiteAPNsID.read(.text("not a uuid")) == nil)
    }
}
