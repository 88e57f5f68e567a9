import Foundation
import Storage
import Testing

@testable import Emulator

/// A long run through the write-behind into SQLite: memory (the ring and what waits) and the file
/// stay capped however many requests go through (issue 4: 5 million requests; 200,000 here).
@Suite(.timeLimit(.minutes(1)))
struct DeliveryLogLongRunTests {
    @Test func aLongRunKeepsTheLogCappedInMemoryAndOnDisk() async throws {
        let fixture = try StoreFixture(.sqlite)
        defer { fixture.remove() }
        let capacity = 1000
        var settings = DeliveryLogWriteBehind()
        settings.flushInterval = .milliseconds(5)
        settings.batchSize = 512
        settings.pendingLimit = 4096
        let writer = try DeliveryLogWriter(store: fixture.store, capacity: capacity, total: 0, settings: settings)
        let log = DeliveryLog(capacity: capacity, restoring: [], total: 0, writer: writer)
        let payload = Array(String(repeating: "x", count: 100).utf8)

        let perTask = 100_000
        let mostPending = await withTaskGroup(of: Int.self) { group in
            for task in 0..<2 {
                group.addTask {
                    var most = 0
                    for n in 0..<perTask {
                        log.append(
                            Delivery(
                                receivedAt: n, token: String(task), topic: "com.example.app", pushType: "alert",
                                priority: 10,
                                apnsID: nil, uniqueID: nil, status: 200, reason: nil, payload: payload))
                        if n % 1000 == 0 { most = max(most, writer.stats.pending) }
                    }
                    return most
                }
            }
            return await group.reduce(0, max)
        }
        await writer.shutdown()

        #expect(mostPending <= capacity, "what waits never exceeds min(pendingLimit, capacity)")
        #expect(log.keptCount == capacity)
        #expect(log.totalCount == 2 * perTask)
        let stats = writer.stats
        #expect(stats.dropped == 0, "waiting entries beyond the capacity are superseded, not lost")
        #expect(stats.failures == 0)

        let database = try SQLiteDatabase(path: fixture.path)
        // Whole batches go once none of their entries is among the newest `capacity`: the file holds
        // those and the rest of the oldest row kept (a row is at most one batch, here at most 1000 entries).
        let onDisk = try database.query("SELECT sum(count), max(last_seq) - min(first_seq) + 1 FROM delivery_batches") {
            ($0.int(0) ?? 0, $0.int(1) ?? 0)
        }
        #expect(onDisk.count == 1)
        if let (entries, span) = onDisk.first {
            #expect(entries >= capacity && entries < 2 * capacity, "\(entries) entries in the file")
            #expect(entries == span, "the batches kept are contiguous")
        }
        let (entries, total) = try fixture.store.loadDeliveries(newest: capacity)
        #expect(entries == log.entries(), "the file holds exactly the newest entries")
        #expect(total == 2 * perTask)
        let bytes = ["", "-wal"].reduce(0) { sum, suffix in
            let attributes = try? FileManager.default.attributesOfItem(atPath: fixture.path + suffix)
            return sum + ((attributes?[.size] as? Int) ?? 0)
        }
        // 200,000 entries would take over 30 MB in the file alone; the newest 1000 take about
        // 200 KB, plus a WAL that checkpoints at 16 MB and is then reused.
        #expect(bytes < 24_000_000, "\(bytes) bytes on disk")
    }
}
