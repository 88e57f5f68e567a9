import APNs
import Foundation
import Storage
import Testing

@testable import Emulator

/// The SQLite store's delivery log as it sits in the file: one row per batch, whole batches capped,
/// version 2's rows converted, a damaged blob named.
@Suite(.timeLimit(.minutes(1)))
struct SQLiteDeliveryBatchTests {
    /// (first_seq, last_seq, count) of every batch row, oldest first.
    static func batches(_ path: String) throws -> [[Int]] {
        try SQLiteDatabase(path: path).query(
            "SELECT first_seq, last_seq, count FROM delivery_batches ORDER BY last_seq"
        ) { [$0.int(0) ?? -1, $0.int(1) ?? -1, $0.int(2) ?? -1] }
    }

    @Test func eachBatchIsOneRowAndWholeBatchesGoOnceNoneOfTheirEntriesIsKept() throws {
        let fixture = try StoreFixture(.sqlite)
        defer { fixture.remove() }
        let store = fixture.store
        try store.write(DeliveryBatch(entries: (1...4).map(Delivery.numbered), total: 4), capacity: 6)
        try store.write(DeliveryBatch(entries: (5...7).map(Delivery.numbered), total: 7), capacity: 6)
        #expect(try Self.batches(fixture.path) == [[1, 4, 4], [5, 7, 3]], "entry 1 is dropped, its batch stays")
        #expect(try store.loadDeliveries(newest: 100).entries == (2...7).map(Delivery.numbered))

        try store.write(DeliveryBatch(entries: (8...10).map(Delivery.numbered), total: 10), capacity: 6)
        #expect(try Self.batches(fixture.path) == [[5, 7, 3], [8, 10, 3]], "entries 1-4 all dropped: their row goes")
        #expect(try fixture.reopened().loadDeliveries(newest: 100).entries == (5...10).map(Delivery.numbered))
        #expect(try fixture.reopened().loadDeliveries(newest: 4).entries == (7...10).map(Delivery.numbered))

        try store.write(DeliveryBatch(entries: (11...30).map(Delivery.numbered), total: 30), capacity: 6)
        #expect(try Self.batches(fixture.path) == [[11, 16, 6]], "a batch over the capacity is cut to its newest")
        #expect(try store.loadDeliveries(newest: 100) == ((25...30).map(Delivery.numbered), 30))

        try store.write(DeliveryBatch(clearFirst: true, entries: [.numbered(31)], total: 1), capacity: 6)
        #expect(try Self.batches(fixture.path) == [[1, 1, 1]], "numbering starts again after a clear")
    }

    /// A delivery with no text and `payload` bytes of payload.
    static func bare(_ n: Int, payload: Int = 0) -> Delivery {
        Delivery(
            receivedAt: n, token: nil, topic: nil, pushType: nil, priority: nil, apnsID: nil, uniqueID: nil,
            status: 200, reason: nil, payload: [UInt8](repeating: 7, count: payload))
    }

    @Test func aLargeBatchIsSplitIntoRowsOfAtMost8192EntriesOrAMebibyte() throws {
        let fixture = try StoreFixture(.sqlite)
        defer { fixture.remove() }
        let small = (1...20_000).map { Self.bare($0) }  // 62 bytes each: the entry limit comes first
        try fixture.store.write(DeliveryBatch(entries: small, total: 20_000), capacity: 100_000)
        #expect(try Self.batches(fixture.path) == [[1, 8192, 8192], [8193, 16384, 8192], [16385, 20000, 3616]])
        #expect(try fixture.store.loadDeliveries(newest: 100_000).entries == small)

        let big =
            [Self.bare(1, payload: 400_000), Self.bare(2, payload: 400_000), Self.bare(3, payload: 1_500_000)]
            + (4...6).map { Self.bare($0, payload: 300_000) }
        try fixture.store.write(DeliveryBatch(clearFirst: true, entries: big, total: 6), capacity: 100)
        #expect(
            try Self.batches(fixture.path) == [[1, 2, 2], [3, 3, 1], [4, 6, 3]],
            "a row stops before 1 MiB unless its one record is larger")
        #expect(try fixture.reopened().loadDeliveries(newest: 100).entries == big)
    }

    @Test func version3ConvertsVersion2sRowsIntoBatches() throws {
        let fixture = try StoreFixture(.memory)  // a directory only; the file is made by hand at version 2
        defer { fixture.remove() }
        let old = try SQLiteDatabase(path: fixture.path)
        try old.migrate(Array(SQLiteEmulatorStore.migrations.prefix(2)))
        let all = (1...9000).map(Delivery.numbered)
        try old.transaction {
            for delivery in all {
                try old.run(
                    """
                    INSERT INTO deliveries (received_at, token, topic, push_type, priority, apns_id, unique_id, status,
                        reason, payload, channel, fault) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .integer(delivery.receivedAt), SQLiteValue(delivery.token), SQLiteValue(delivery.topic),
                        SQLiteValue(delivery.pushType), SQLiteValue(delivery.priority), SQLiteValue(delivery.apnsID),
                        SQLiteValue(delivery.uniqueID), .integer(delivery.status), SQLiteValue(delivery.reason),
                        .blob(delivery.payload), SQLiteValue(delivery.channel), SQLiteValue(delivery.fault),
                    ])
            }
            // Version 2 kept the newest rows: the numbers need not start at 1.
            try old.run("DELETE FROM deliveries WHERE seq <= 10")
            try old.run("INSERT INTO counters (name, value) VALUES ('deliveries.total', 12345)")
        }

        let store = try SQLiteEmulatorStore(path: fixture.path)
        #expect(try SQLiteDatabase(path: fixture.path).userVersion == 5)
        let rows = try Self.batches(fixture.path)
        #expect(rows.first?.first == 1 && rows.last?[1] == 8990 && rows.count >= 2, "\(rows)")
        #expect(zip(rows, rows.dropFirst()).allSatisfy { $0[1] + 1 == $1[0] }, "contiguous: \(rows)")
        let largest = try SQLiteDatabase(path: fixture.path).query("SELECT max(length(records)) FROM delivery_batches")
        {
            $0.int(0) ?? 0
        }
        #expect(largest.allSatisfy { $0 <= DeliveryRowLimits.bytes })
        let tables = try SQLiteDatabase(path: fixture.path).query(
            "SELECT count(*) FROM sqlite_master WHERE name = 'deliveries'"
        ) { $0.int(0) }
        #expect(tables == [0], "the per-row table is gone")
        let (entries, total) = try store.loadDeliveries(newest: 100_000)
        #expect(entries == Array(all.dropFirst(10)), "every field of every row kept, in order")
        #expect(total == 12345)
        try store.write(DeliveryBatch(entries: [.numbered(9001)], total: 12346), capacity: 5)
        #expect(try store.loadDeliveries(newest: 100).entries == (8997...9001).map(Delivery.numbered))
    }

    @Test(arguments: [
        (4, "UPDATE delivery_batches SET records = substr(records, 1, 70)", "record 0 at byte 0: text ("),
        (4, "UPDATE delivery_batches SET records = records || X'00'", "record 3 at byte "),
        (4, "UPDATE delivery_batches SET records = X'07'", "record 0 at byte 0: needs 62 header bytes, 1 are left"),
        (4, "UPDATE delivery_batches SET count = 2, first_seq = 2", "batch 2...3 with 3 records"),
        (5, "UPDATE delivery_batches SET records = substr(records, 1, 70)", "record 0 at byte 0: text ("),
        (5, "UPDATE delivery_batches SET records = records || X'00'", "record 3 at byte "),
        (5, "UPDATE delivery_batches SET records = X'07'", "record 0 at byte 0: needs 3 header bytes, 1 are left"),
        (
            5, "UPDATE delivery_batches SET records = X'000001'",
            "record 0 at byte 0: repeats fields (1) it does not have"
        ),
        // Format 5 stops at the record past the count the row declares (a row must not decode into
        // more than it says: see DeliveryRecord.decodeCompactAll).
        (5, "UPDATE delivery_batches SET count = 2, first_seq = 2", "batch 2...3: record 2 at byte "),
        (5, "UPDATE delivery_batches SET count = 2, first_seq = 2", "the row holds more than its 2 records"),
    ])
    func aDamagedBatchIsNamed(format: Int, _ sql: String, _ message: String) throws {
        let fixture = try StoreFixture(.sqlite)
        defer { fixture.remove() }
        let entries = (1...3).map(Delivery.numbered)
        try fixture.store.write(DeliveryBatch(entries: entries, total: 3), capacity: 10)
        let database = try SQLiteDatabase(path: fixture.path)
        if format == 4 {  // the row as a Herald of schema 4 wrote it
            try database.run(
                "UPDATE delivery_batches SET format = 4, records = ?",
                [.blob(DeliveryRecord.encode(entries.map(DeliveryRecord.init)))])
            #expect(try fixture.reopened().loadDeliveries(newest: 10).entries == entries, "format 4 still reads")
        }
        try database.execute(sql)
        let error = try #require(throws: EmulatorStoreError.self) { try fixture.reopened().loadDeliveries(newest: 10) }
        #expect(error.description.hasPrefix("delivery_batches.records holds 'batch "), "\(error)")
        #expect(error.description.contains(message), "\(error)")
    }

    @Test func anUnknownRecordFormatIsNamed() throws {
        let fixture = try StoreFixture(.sqlite)
        defer { fixture.remove() }
        try fixture.store.write(DeliveryBatch(entries: [.numbered(1)], total: 1), capacity: 10)
        try SQLiteDatabase(path: fixture.path).execute("UPDATE delivery_batches SET format = 9")
        let error = try #require(throws: EmulatorStoreError.self) { try fixture.reopened().loadDeliveries(newest: 10) }
        #expect(
            error.description
                == "delivery_batches.format holds '9 (batch 1...1; formats 4 and 5 are known)', which Herald cannot read"
        )
    }

    @Test func rowsOfFormat4AndFormat5ReadTogether() throws {
        let fixture = try StoreFixture(.sqlite)
        defer { fixture.remove() }
        let old = (1...5).map(Delivery.numbered)
        try fixture.store.write(DeliveryBatch(entries: old, total: 5), capacity: 10)
        try SQLiteDatabase(path: fixture.path).run(  // as schema 4 wrote it
            "UPDATE delivery_batches SET format = 4, records = ?",
            [.blob(DeliveryRecord.encode(old.map(DeliveryRecord.init)))])
        let store = try fixture.reopened()
        try store.write(DeliveryBatch(entries: (6...12).map(Delivery.numbered), total: 12), capacity: 10)
        #expect(try store.loadDeliveries(newest: 10).entries == (3...12).map(Delivery.numbered))
        let formats = try SQLiteDatabase(path: fixture.path).query(
            "SELECT format FROM delivery_batches ORDER BY last_seq"
        ) {
            $0.int(0)
        }
        #expect(formats == [4, 5])
    }
}
