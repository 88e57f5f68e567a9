import APNs
import Dispatch
import HTTP2
import Synchronization

/// Batches from the decoding thread to the consumer: a bounded queue with one lock per batch.
///
/// Thread-safety: `put`, `spareBatch` and `decodingFinished` from the decoding thread; `take`,
/// `recycle` and `stop` from the consumer.
final class BatchHandover: Sendable {
    /// Where a notification came from: its line number, and whether its lint verdict has findings.
    struct LineTag {
        let line: Int
        let warned: Bool
    }

    /// A report and where it goes: before the notification at index `before` (the batch's count:
    /// after the last).
    struct PlacedReport {
        let before: Int
        let report: LineReport
    }

    struct Batch {
        /// In line order (optional so that the consumer can move each one out).
        var notifications: [APNsNotification?] = []
        /// One per notification.
        var tags: [LineTag] = []
        /// In line order.
        var reports: [PlacedReport] = []
        /// The `before` of the first report the consumer has not delivered; -1: none left.
        var nextReportAt = -1
        /// The last line decoded into this batch (blank lines included).
        var throughLine = 0
        /// The end of the stream: no batch follows.
        var last = false

        init() {}

        init(reservingCapacity capacity: Int) {
            notifications.reserveCapacity(capacity)
            tags.reserveCapacity(capacity)
        }

        mutating func removeAll() {
            notifications.removeAll(keepingCapacity: true)
            tags.removeAll(keepingCapacity: true)
            reports.removeAll()
            nextReportAt = -1
            throughLine = 0
            last = false
        }
    }

    private struct State {
        var batches: [Batch] = []
        /// Emptied batches back from the consumer, for the decoding thread to fill again: a
        /// batch is a block of several kilobytes, and allocating one per batch on one thread and
        /// freeing it on the other made glibc consolidate its free lists each time.
        var spares: [Batch] = []
        var stopped = false
    }

    private let state = AnnotatedMutex(State())
    let progress = Mutex(DecodingProgress())
    /// Counts batches waiting (signalled per batch put).
    private let available = DispatchSemaphore(value: 0)
    /// Counts room for batches (signalled per batch taken).
    private let room: DispatchSemaphore
    /// Signalled once when the decoding thread has finished.
    private let finished = DispatchSemaphore(value: 0)

    init(capacity: Int) {
        // Made at zero and raised: libdispatch traps when a semaphore is freed below the value
        // it was made with, which this one is when the consumer stops with batches untaken.
        room = DispatchSemaphore(value: 0)
        for _ in 0..<capacity { room.signal() }
    }

    /// Decoding thread: waits for room, then hands `batch` over. False when the consumer stopped.
    func put(_ batch: Batch) -> Bool {
        room.wait()
        let accepted = state.withLock { state in
            guard !state.stopped else { return false }
            state.batches.append(batch)
            return true
        }
        if accepted { available.signal() }
        return accepted
    }

    /// Decoding thread: an emptied batch to fill, if the consumer has handed one back.
    func spareBatch() -> Batch? {
        state.withLock { $0.spares.popLast() }
    }

    /// Consumer: hands back the batch it has emptied (every notification taken), leaving `batch` empty.
    func recycle(_ batch: inout Batch) {
        guard batch.notifications.capacity > 0 else { return }
        var spare = Batch()
        swap(&spare, &batch)
        spare.removeAll()
        state.withLock { state in
            if state.spares.count < 2 { state.spares.append(spare) }
        }
    }

    /// Decoding thread: it has finished and holds nothing any more.
    func decodingFinished() {
        finished.signal()
    }

    /// Consumer: the next batch, waiting for it if decoding is behind; an empty last batch when
    /// woken by `wakeConsumer` with none waiting.
    func take() -> Batch {
        available.wait()
        // At most `capacity` batches wait: removing the first moves a few words.
        let batch = state.withLock { $0.batches.isEmpty ? nil : $0.batches.removeFirst() }
        guard let batch else {
            var end = Batch()
            end.last = true
            return end
        }
        room.signal()
        return batch
    }

    /// Any thread: wakes a consumer waiting in `take` (an interruption; called once per stream).
    func wakeConsumer() {
        available.signal()
    }

    /// Consumer: no more batches are wanted; with `waiting`, returns once the decoding thread has
    /// finished.
    func stop(waiting: Bool = true) {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        room.signal()  // a decoding thread waiting for room wakes, sees `stopped` and ends
        if waiting { finished.wait() }
    }
}
