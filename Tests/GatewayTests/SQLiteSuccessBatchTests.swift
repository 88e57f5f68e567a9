import APNs
import Foundation
import Storage
import Testing

@testable import Gateway

/// The SQLite store records a chunk's successes as one `delivery_successes` row per batch
/// (`SQLiteSuccessBatch`) and every other outcome as a `deliveries` row: each reader sees both.
@Suite(.timeLimit(.minutes(3)))
struct SQLiteSuccessBatchTests {
    private let lease = 30_000

    private func fanOut(_ store: SQLiteGatewayStore, devices: Int, id: String = "n-1") async throws -> NotificationID {
        try await store.importDevices((1...devices).map { try registration($0, tags: ["t"]) }, now: Clock.start)
        return try await store.createNotification(request(to: .tags(["t"])), id: id, now: Clock.start).notification.id
    }

    private func claimChunk(_ store: SQLiteGatewayStore, _ id: NotificationID, size: Int) async throws -> [Delivery] {
        try await store.expandAndClaim(
            id: id, chunkSize: size, claimer: "a", leaseMilliseconds: lease, now: Clock.start
        ).claim.deliveries
    }

    private func stored(_ store: SQLiteGatewayStore, _ sql: String) async throws -> [Int] {
        try await store.withDatabase { database in try database.query(sql) { $0.int(0) ?? -1 } }
    }

    @Test func aListingMergesSuccessBatchesAndOtherRowsInRecordedOrderEachRecipientOnce() async throws {
        let fixture = try GatewayStoreFixture(.sqlite)
        defer { fixture.remove() }
        let store = try #require(fixture.store as? SQLiteGatewayStore)
        let id = try await fanOut(store, devices: 30)
        let first = try await claimChunk(store, id, size: 20)
        let second = try await claimChunk(store, id, size: 20)
        try #require(first.count == 20 && second.count == 10)

        // One call: the first chunk's first 10 (a failure at 3, a retry at 9, successes between)
        // and the whole second chunk; then the first chunk's other 10.
        let firstTen: [DeliveryOutcome] = first[0..<10].enumerated().map { position, delivery in
            switch position {
            case 3: DeliveryOutcome(delivery, result: .failed(reason: .badDeviceToken, timestamp: nil))
            case 9: DeliveryOutcome(delivery, result: .retryable(reason: "ServiceUnavailable"))
            default: DeliveryOutcome(delivery, result: .succeeded(apnsUniqueID: "u-\(position)"))
            }
        }
        try await store.recordOutcomes(
            firstTen + second.map { DeliveryOutcome($0, result: .succeeded(apnsUniqueID: nil)) },
            backoff: DeliveryBackoff(), now: Clock.start + 1)
        try await store.recordOutcomes(
            first[10...].map { DeliveryOutcome($0, result: .succeeded(apnsUniqueID: nil)) },
            backoff: DeliveryBackoff(), now: Clock.start + 2)
        #expect(try await stored(store, "SELECT count(*) FROM delivery_successes") == [4], "a batch per run")
        #expect(try await stored(store, "SELECT count(*) FROM deliveries") == [2], "the failure and the retry")

        var seen: [Delivery] = []
        var cursors: [Int] = []
        var cursor: Int?
        repeat {
            let page = try await fixture.reopened().deliveries(notificationID: id, after: cursor, limit: 7)
            #expect(page.deliveries.count <= 7)
            let again = try await store.deliveries(notificationID: id, after: cursor, limit: 7)
            #expect(again == page, "a page read again from its cursor is the same page")
            seen += page.deliveries
            cursor = page.nextCursor
            if let cursor { cursors.append(cursor) }
        } while cursor != nil && cursors.count < 10
        let recorded = Array(first[0..<10]) + second + Array(first[10...])
        #expect(
            seen.map(\.recipient) == recorded.map(\.recipient),
            "each recipient once, in recorded order (member order within a call)")
        #expect(seen.map(\.apnsID) == recorded.map(\.apnsID), "each with the apns-id it was sent with")
        #expect(cursors == cursors.sorted() && Set(cursors).count == cursors.count && cursors.count == 4)
        var statuses = Array(repeating: Delivery.Status.succeeded, count: 30)
        statuses[3] = .failed
        statuses[9] = .pending
        #expect(seen.map(\.status) == statuses)
        #expect(seen[0].apnsUniqueID == "u-0" && seen[8].apnsUniqueID == "u-8" && seen[10].apnsUniqueID == nil)
        #expect(seen[0].attempts == 1 && seen[0].lastAttemptAt == Clock.start + 1)
        #expect(seen[3].reason == "BadDeviceToken")
        #expect(seen.allSatisfy { $0.notificationID == id && $0.kind == .device })
        let counts = try await store.counts(id: id)
        #expect(counts.succeeded == 28 && counts.failed == 1 && counts.pending == 1)
    }

    @Test func aChunkClaimedAgainAfterItsLeaseSkipsTheMembersOfItsSuccessBatch() async throws {
        let fixture = try GatewayStoreFixture(.sqlite)
        defer { fixture.remove() }
        let store = try #require(fixture.store as? SQLiteGatewayStore)
        let id = try await fanOut(store, devices: 10)
        let chunk = try await claimChunk(store, id, size: 20)
        try #require(chunk.count == 10)
        // The worker recorded six successes and died.
        try await store.recordOutcomes(
            chunk[0..<6].map { DeliveryOutcome($0, result: .succeeded(apnsUniqueID: nil)) },
            backoff: DeliveryBackoff(), now: Clock.start + 1)
        #expect(try await stored(store, "SELECT count(*) FROM delivery_successes") == [1])

        let retaken = try await fixture.reopened().claimDeliveries(
            limit: 100, claimer: "b", leaseMilliseconds: lease, now: Clock.start + lease + 1)
        #expect(retaken.deliveries.map(\.recipient) == chunk[6...].map(\.recipient), "the succeeded six are not sent")
        #expect(retaken.deliveries.map(\.apnsID) == chunk[6...].map(\.apnsID))
        try await store.recordOutcomes(
            retaken.deliveries.map { DeliveryOutcome($0, result: .succeeded(apnsUniqueID: nil)) },
            backoff: DeliveryBackoff(), now: Clock.start + lease + 2)
        let listed = try await store.allDeliveries(id)
        #expect(listed.map(\.recipient) == chunk.map(\.recipient))
        #expect(try await store.notification(id: id)?.state == .done)
        #expect(try await store.counts(id: id).succeeded == 10)
    }

    @Test func aDevicesHistoryHoldsItsSuccessesInBatchesAndItsRowsNewestFirst() async throws {
        let fixture = try GatewayStoreFixture(.sqlite)
        defer { fixture.remove() }
        let store = try #require(fixture.store as? SQLiteGatewayStore)
        let fanOut = try await fanOut(store, devices: 3)
        let chunk = try await claimChunk(store, fanOut, size: 10)
        try await store.recordOutcomes(
            chunk.map { DeliveryOutcome($0, result: .succeeded(apnsUniqueID: nil)) }, backoff: DeliveryBackoff(),
            now: Clock.start + 1)
        // Then a notification to the first token alone, which fails (a row).
        let single = try await store.createNotification(
            request(to: .tokens([try token(1)])), id: "n-2", now: Clock.start
        ).notification.id
        let row = try await claimChunk(store, single, size: 10)
        try await store.recordOutcomes(
            row.map { DeliveryOutcome($0, result: .failed(reason: .badDeviceToken, timestamp: nil)) },
            backoff: DeliveryBackoff(), now: Clock.start + 2)

        var seen: [Delivery] = []
        var cursor: Int?
        var pages = 0
        repeat {
            let page = try await store.deliveries(
                bundleID: bundleID, kind: .device, recipient: try token(1).hex, before: cursor, limit: 1)
            seen += page.deliveries
            cursor = page.nextCursor
            pages += 1
        } while cursor != nil && pages < 5
        #expect(seen.map(\.notificationID) == [single, fanOut])
        #expect(seen.map(\.status) == [.failed, .succeeded])
        #expect(seen.last?.apnsID == chunk.first?.apnsID)
        let second = try await store.deliveries(
            bundleID: bundleID, kind: .device, recipient: try token(2).hex, before: nil, limit: 10)
        #expect(second.deliveries.map(\.recipient) == [try token(2).hex] && second.nextCursor == nil)
        let otherApp = try await store.deliveries(
            bundleID: "com.example.other", kind: .device, recipient: try token(2).hex, before: nil, limit: 10)
        #expect(otherApp.deliveries.isEmpty)
    }

    @Test func aHistoryPageStopsAtItsScanBoundAndItsCursorGoesOnBelowIt() async throws {
        let fixture = try GatewayStoreFixture(.sqlite)
        defer { fixture.remove() }
        let store = try #require(fixture.store as? SQLiteGatewayStore)
        let id = try await fanOut(store, devices: 1)
        let mine = try token(1).hex
        let other = try token(2).hex
        // Batches of the notification: the token's oldest, then as many of another token as one
        // page scans, then the token's newest.
        func batch(_ recipient: String, _ n: Int) -> SQLiteSuccessBatch {
            var batch = SQLiteSuccessBatch()
            let id = [UInt8](repeating: UInt8(truncatingIfNeeded: n), count: 15) + [0x40]
            _ = batch.append(.init(apnsID: id, recipient: recipient, environment: .production, apnsUniqueID: nil))
            return batch
        }
        let recipients = [mine] + Array(repeating: other, count: SQLiteGatewayStore.historyBatchScan) + [mine]
        let blobs = recipients.enumerated().map { batch($1, $0).bytes }
        try await store.inTransaction { database in
            for (n, blob) in blobs.enumerated() {
                try database.run(
                    """
                    INSERT INTO delivery_successes (seq, notification_seq, chunk_seq, kind, recorded_at, members)
                        VALUES (\(SQLiteSuccessBatch.nextSeqSQL), 1, 1, 'device', ?, ?)
                    """, [.integer(Clock.start + n)], blob: blob)
            }
        }
        let first = try await store.deliveries(
            bundleID: bundleID, kind: .device, recipient: mine, before: nil, limit: 10)
        #expect(first.deliveries.map(\.lastAttemptAt) == [Clock.start + recipients.count - 1], "the newest only")
        let cursor = try #require(first.nextCursor, "the bound ended the page: a cursor goes on below it")
        let second = try await store.deliveries(
            bundleID: bundleID, kind: .device, recipient: mine, before: cursor, limit: 10)
        #expect(second.deliveries.map(\.lastAttemptAt) == [Clock.start], "the oldest, below the bound")
        #expect(second.deliveries.map(\.notificationID) == [id])
        #expect(second.nextCursor == nil)
    }

    @Test func aVersion4DatabaseKeepsItsSuccessRowsAndListsNewBatchesAfterThem() async throws {
        let scratch = try ScratchDirectory("herald-migration")
        defer { scratch.remove() }
        let path = scratch.storePath
        let old = try token(1).hex
        do {
            // A notification sent by Herald with migration 4: a success row per delivery.
            let database = try SQLiteDatabase(path: path)
            try database.migrate(Array(SQLiteGatewayStore.migrations.prefix(4)))
            try database.execute(
                """
                INSERT INTO notifications (id, bundle_id, to_kind, to_values, push_type, payload, environment, state,
                    created_at, expanded, recipients, pending, succeeded, apns_base)
                    VALUES ('n-1', '\(bundleID)', 'tokens', '["\(old)"]', 'alert', X'7B7D', 'sandbox', 'done', 1, 1, 1,
                        0, 1, randomblob(16));
                INSERT INTO deliveries (notification_seq, kind, recipient, environment, apns_id, status, attempts,
                    next_attempt_at, last_attempt_at, apns_unique_id)
                    VALUES (1, 'device', '\(old)', 'sandbox', X'0F8FAD5BD9CB469FA16570867728950E', 'succeeded', 1, 5,
                        5, 'u-1');
                """)
        }
        let store = try SQLiteGatewayStore(path: path)
        #expect(try await store.withDatabase { try $0.userVersion } == SQLiteGatewayStore.migrations.count)
        let before = try await store.allDeliveries("n-1")
        #expect(
            before.map(\.recipient) == [old] && before.first?.apnsID.value == "0f8fad5b-d9cb-469f-a165-70867728950e")
        #expect(before.first?.status == .succeeded && before.first?.apnsUniqueID == "u-1")

        let id = try await fanOut(store, devices: 2, id: "n-2")
        let chunk = try await claimChunk(store, id, size: 10)
        try await store.recordOutcomes(
            chunk.map { DeliveryOutcome($0, result: .succeeded(apnsUniqueID: nil)) }, backoff: DeliveryBackoff(),
            now: Clock.start)
        #expect(try await stored(store, "SELECT seq FROM delivery_successes") == [2], "numbered after the old rows")
        #expect(try await store.allDeliveries("n-1") == before)
        #expect(try await store.allDeliveries(id).map(\.recipient) == chunk.map(\.recipient))
        let history = try await store.deliveries(
            bundleID: bundleID, kind: .device, recipient: old, before: nil, limit: 10)
        #expect(history.deliveries.map(\.notificationID) == [id, "n-1"], "the batch's member, then the old row")
    }
}
