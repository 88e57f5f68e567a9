import Testing

@testable import Emulator

/// The writer's queue over the in-memory log's rows: what it hands over, what it drops and counts,
/// when it asks for the writer, and that a take never sees later entries.
@Suite(.timeLimit(.minutes(1)))
struct PendingDeliveriesTests {
    /// A log's rows and its writer's queue, as `DeliveryLog` keeps them under its lock.
    struct Log {
        var ring: EncodedDeliveryRing
        var pending: PendingDeliveries

        init(capacity: Int, limit: Int, batchSize: Int = 1000, total: Int = 0) {
            ring = EncodedDeliveryRing(capacity: capacity)
            pending = PendingDeliveries(
                limit: min(limit, capacity), batchSize: batchSize, overwritesAreLosses: limit < capacity, total: total,
                after: &ring)
        }

        mutating func append(_ delivery: Delivery) -> Bool {
            ring.append(DeliveryRecord(delivery))
            return pending.appended(to: ring)
        }

        mutating func take() -> DeliveryBatch? { pending.take(from: &ring) }
    }

    static func delivery(_ n: Int, payload: String = "{\"aps\":{}}") -> Delivery {
        EncodedDeliveryRowTests.delivery(n, payload: payload)
    }

    @Test func theQueueOverwritesTheOldestAndCountsLosses() {
        var log = Log(capacity: 10, limit: 3, batchSize: 100, total: 10)
        for n in 1...5 { _ = log.append(Self.delivery(n)) }
        #expect(log.pending.count == 3 && log.pending.lost == 2)
        let batch = log.take()
        #expect(batch?.entries == (3...5).map { Self.delivery($0) })
        #expect(batch?.total == 15)
        #expect(log.take() == nil, "nothing waits after a take")
        #expect(log.ring.records().map(\.receivedAt) == Array(1...5), "the log keeps what the queue dropped")
    }

    /// Waiting as long as the log keeps: entries the log overwrites are superseded, not lost.
    @Test(arguments: [1, 3, 8192, 8193])
    func aQueueAsLongAsTheLogDropsWithIt(capacity: Int) {
        var log = Log(capacity: capacity, limit: capacity)
        for n in 0..<(2 * capacity + 5) { _ = log.append(Self.delivery(n)) }
        #expect(log.pending.count == capacity && log.pending.lost == 0)
        let batch = log.take()
        #expect(batch?.records.map(\.receivedAt) == Array(capacity + 5..<2 * capacity + 5))
        #expect(batch?.count == capacity)
    }

    /// A take ends the row it takes: later entries go to a new row, and the taken copies (sharing
    /// the storage) neither change nor see them.
    @Test func aTakeSealsTheRowAndLaterEntriesStartANewOne() throws {
        var log = Log(capacity: 100, limit: 100)
        for n in 0..<5 { _ = log.append(Self.delivery(n)) }
        let taken = log.take()
        let first = try #require(taken)
        let bytes = first.rows.map { Array($0.bytes) }
        for n in 5..<8 { _ = log.append(Self.delivery(n)) }
        #expect(first.rows.map { Array($0.bytes) } == bytes)
        #expect(first.records.map(\.receivedAt) == Array(0..<5))
        #expect(log.ring.rows.count == 2)
        #expect(log.take()?.records.map(\.receivedAt) == Array(5..<8))
        #expect(log.ring.records().map(\.receivedAt) == Array(0..<8))
        #expect((log.ring.rows.first?.storage.capacity ?? 0) < DeliveryRowLimits.bytes, "a row ended early gives back its room")
    }

    /// Large payloads fill rows long before the entry limit: the writer is asked to start once a few
    /// rows wait.
    @Test func theQueueAsksForTheWriterOnceFourRowsWait() {
        var log = Log(capacity: 1000, limit: 1000)
        let large = String(repeating: "x", count: DeliveryRowLimits.bytes / 2)
        let early = (1...5).map { log.append(Self.delivery($0, payload: large + "\($0)")) }
        #expect(early == [false, false, false, true, false], "asked once 4 rows wait")
        #expect(log.take()?.entries.map(\.receivedAt) == Array(1...5))
    }

    @Test func theQueueAsksForTheWriterOncePerFullBatch() {
        var log = Log(capacity: 100, limit: 100, batchSize: 3)
        let asks = (1...7).map { log.append(Self.delivery($0)) }
        #expect(asks == [false, false, true, false, false, false, false], "asked once until the writer takes")
        _ = log.take()
        let later = (8...10).map { log.append(Self.delivery($0)) }
        #expect(later == [false, false, true], "and once more after it took them")
    }

    /// Clearing between takes: the next batch clears the store first and holds only what came after.
    @Test func clearingWhileEntriesWaitStartsAfresh() throws {
        var log = Log(capacity: 10, limit: 10, total: 3)
        for n in 0..<4 { _ = log.append(Self.delivery(n)) }
        log.ring.removeAll()
        log.pending.clear(log.ring)
        #expect(log.pending.count == 0 && !log.pending.isEmpty, "the clearing itself waits")
        for n in 4..<6 { _ = log.append(Self.delivery(n)) }
        let taken = log.take()
        let batch = try #require(taken)
        #expect(batch.clearFirst && batch.total == 2)
        #expect(batch.records.map(\.receivedAt) == [4, 5])
    }
}
