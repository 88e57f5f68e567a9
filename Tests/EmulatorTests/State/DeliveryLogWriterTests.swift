import Dispatch
import Synchronization
import Testing

@testable import Emulator

/// A delivery-log store that reports each write and can hold the writer inside one (a slow disk).
final class GatedLogStore: DeliveryLogStore {
    private let inner = InMemoryEmulatorStore()
    private let gate = DispatchSemaphore(value: 0)
    private let gated: Atomic<Bool>
    private let failure: EmulatorStoreError?
    let writes: AsyncStream<DeliveryBatch>
    private let continuation: AsyncStream<DeliveryBatch>.Continuation

    init(gated: Bool = false, failure: EmulatorStoreError? = nil) {
        self.gated = Atomic(gated)
        self.failure = failure
        (writes, continuation) = AsyncStream.makeStream(of: DeliveryBatch.self)
    }

    /// Lets a write held at the gate finish, and later writes through without waiting.
    func open() {
        gated.store(false, ordering: .sequentiallyConsistent)
        gate.signal()
    }

    func write(_ batch: DeliveryBatch, capacity: Int) throws(EmulatorStoreError) {
        continuation.yield(batch)
        if gated.load(ordering: .sequentiallyConsistent) { gate.wait() }
        if let failure { throw failure }
        try inner.write(batch, capacity: capacity)
    }

    func loadDeliveries(newest limit: Int) throws(EmulatorStoreError) -> (entries: [Delivery], total: Int) {
        try inner.loadDeliveries(newest: limit)
    }
}

/// The delivery log's write-behind: batches, order, bounds, and what happens when the store is slow
/// or failing.
@Suite(.timeLimit(.minutes(1)))
struct DeliveryLogWriterTests {
    func settings(interval: Duration = .seconds(3600), batch: Int = 1_000_000, pending: Int = 65_536)
        -> DeliveryLogWriteBehind
    {
        var settings = DeliveryLogWriteBehind()
        settings.flushInterval = interval
        settings.batchSize = batch
        settings.pendingLimit = pending
        return settings
    }

    func log(_ store: any DeliveryLogStore, capacity: Int, _ settings: DeliveryLogWriteBehind) throws -> DeliveryLog {
        let writer = try DeliveryLogWriter(store: store, capacity: capacity, total: 0, settings: settings)
        return DeliveryLog(capacity: capacity, restoring: [], total: 0, writer: writer)
    }

    @Test func entriesReachTheStoreInOrderOnFlush() async throws {
        let store = InMemoryEmulatorStore()
        let log = try log(store, capacity: 100, settings())
        for n in 1...10 { log.append(.numbered(n)) }
        #expect(try store.loadDeliveries(newest: 100).entries.isEmpty, "nothing is written on the request path")
        await log.writer?.flush()
        let (entries, total) = try store.loadDeliveries(newest: 100)
        #expect(entries == log.entries())
        #expect(total == 10)
        #expect(log.writer?.stats == DeliveryLogWriter.Stats(pending: 0, written: 10, dropped: 0, batches: 1))
        await log.writer?.shutdown()
    }

    @Test func theIntervalWritesWithoutAFlush() async throws {
        let store = GatedLogStore()
        let log = try log(store, capacity: 100, settings(interval: .milliseconds(10)))
        log.append(.numbered(1))
        var writes = store.writes.makeAsyncIterator()
        #expect(await writes.next()?.entries == [.numbered(1)])
        await log.writer?.shutdown()
    }

    @Test func aFullBatchIsWrittenWithoutWaitingForTheInterval() async throws {
        let store = GatedLogStore()
        let log = try log(store, capacity: 100, settings(batch: 5))
        for n in 1...5 { log.append(.numbered(n)) }
        var writes = store.writes.makeAsyncIterator()
        #expect(await writes.next()?.entries == (1...5).map(Delivery.numbered))
        await log.writer?.shutdown()
    }

    @Test func aWriterThatFallsBehindOverwritesTheOldestWaitingAndCountsThem() async throws {
        let store = GatedLogStore(gated: true)
        let log = try log(store, capacity: 100, settings(batch: 1, pending: 10))
        log.append(.numbered(1))
        var writes = store.writes.makeAsyncIterator()
        #expect(await writes.next()?.entries == [.numbered(1)], "the writer is now held inside the store")
        for n in 2...26 { log.append(.numbered(n)) }  // never blocks: the writer is stuck
        #expect(log.writer?.stats.pending == 10)
        #expect(log.writer?.stats.dropped == 15)
        #expect(log.keptCount == 26, "the in-memory log keeps them all")
        store.open()
        await log.writer?.shutdown()
        #expect(try store.loadDeliveries(newest: 100).entries == [.numbered(1)] + (17...26).map(Delivery.numbered))
        #expect(try store.loadDeliveries(newest: 100).total == 26, "the total counts every request")
    }

    @Test func waitingEntriesBeyondTheCapacityAreNotALoss() async throws {
        let store = GatedLogStore(gated: true)
        let log = try log(store, capacity: 5, settings(batch: 1))
        log.append(.numbered(1))
        var writes = store.writes.makeAsyncIterator()
        _ = await writes.next()
        for n in 2...40 { log.append(.numbered(n)) }
        #expect(log.writer?.stats.pending == 5, "never more than the capacity waits")
        #expect(log.writer?.stats.dropped == 0)
        store.open()
        await log.writer?.shutdown()
        #expect(try store.loadDeliveries(newest: 100).entries == (36...40).map(Delivery.numbered))
    }

    @Test func aFailedWriteIsCountedNotThrown() async throws {
        let error = EmulatorStoreError.storage(
            .init(operation: "step", subject: "INSERT", code: 13, message: "database or disk is full"))
        let store = GatedLogStore(failure: error)
        let log = try log(store, capacity: 100, settings())
        for n in 1...3 { log.append(.numbered(n)) }
        await log.writer?.flush()
        let stats = try #require(log.writer?.stats)
        #expect(stats.failures == 1 && stats.dropped == 3 && stats.written == 0)
        #expect(stats.lastError?.contains("database or disk is full") == true)
        #expect(log.keptCount == 3)
        await log.writer?.shutdown()
    }

    @Test func clearingTheLogClearsTheStoreInOrder() async throws {
        let store = InMemoryEmulatorStore()
        let log = try log(store, capacity: 100, settings())
        for n in 1...3 { log.append(.numbered(n)) }
        await log.writer?.flush()
        log.append(.numbered(4))
        log.removeAll()
        log.append(.numbered(5))
        await log.writer?.shutdown()
        let (entries, total) = try store.loadDeliveries(newest: 100)
        #expect(entries == [.numbered(5)])
        #expect(total == log.totalCount)
    }

    /// A store may keep what it was given: the writer reuses a batch's buffers only when no one
    /// else holds them, so a kept batch reads the same after later appends.
    @Test func aBatchTheStoreKeepsIsNotOverwritten() async throws {
        final class KeepingStore: DeliveryLogStore {
            let kept = Mutex<[DeliveryBatch]>([])
            func write(_ batch: DeliveryBatch, capacity: Int) throws(EmulatorStoreError) {
                kept.withLock { $0.append(batch) }
            }
            func loadDeliveries(newest limit: Int) throws(EmulatorStoreError) -> (entries: [Delivery], total: Int) {
                ([], 0)
            }
        }
        let store = KeepingStore()
        let log = try log(store, capacity: 1000, settings())
        for n in 1...10 { log.append(.numbered(n)) }
        await log.writer?.flush()
        for n in 11...500 { log.append(.numbered(n)) }
        await log.writer?.flush()
        let kept = store.kept.withLock { $0 }
        #expect(kept.map(\.entries) == [(1...10).map(Delivery.numbered), (11...500).map(Delivery.numbered)])
        await log.writer?.shutdown()
    }

    @Test func aLogRestoredFromTheStoreContinuesItsTotal() async throws {
        let store = InMemoryEmulatorStore()
        try store.write(DeliveryBatch(entries: (1...4).map(Delivery.numbered), total: 40), capacity: 3)
        let (entries, total) = try store.loadDeliveries(newest: 3)
        let writer = try DeliveryLogWriter(store: store, capacity: 3, total: total, settings: settings())
        let log = DeliveryLog(capacity: 3, restoring: entries, total: total, writer: writer)
        #expect(log.entries() == (2...4).map(Delivery.numbered))
        log.append(.numbered(5))
        #expect(log.totalCount == 41)
        await writer.shutdown()
        #expect(try store.loadDeliveries(newest: 10) == ((3...5).map(Delivery.numbered), 41))
    }
}
