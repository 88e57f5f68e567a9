// The notifications of a bulk NDJSON stream, read and decoded on a thread of their own.
//
//   decoding thread: read line -> decode (BulkRequestDecoder) -> apns-id -> batch of `batchSize`
//                    -> wait for room (at most `batchesAhead` batches wait) -> hand over
//                    ... end of input or read error -> last batch, marked `last`
//   sender (the transport's loop): `next()` pops from its current batch; an empty batch takes the
//                    next one (one lock per batch), waiting for it when decoding is behind.
//
// The sending loop was the bound of a bulk send with decoding on it (about a fifth of its time
// went to the line copy, the scan, the token and topic checks and the apns-id). Memory stays
// bounded: `batchSize * batchesAhead` decoded notifications at most wait for the sender.

import APNs
import Dispatch
import Synchronization

/// The notifications of an NDJSON stream, read and decoded ahead of the sender on a thread of
/// their own, handed over in batches. Lines that cannot become a notification are reported on
/// standard error (from the decoding thread) and counted.
///
/// Thread-safety: `next()` is for one consumer at a time (the sender's loop); `invalid`,
/// `readError` and `bytesConsumed` may be read from any thread. Lifecycle: decoding starts in
/// `init` and ends at the end of input, or at `stop()`.
final class BulkRequests: Sequence, IteratorProtocol {
    static let batchSize = 256
    static let batchesAhead = 8

    private let handover: BatchHandover
    /// The batch being handed out; `take()` moves each notification out (no copy, no retain).
    /// Unchecked exclusivity: touched once per notification by its one consumer, never across a
    /// call that could re-enter `next()` (the dynamic checks were ~150 instructions each time).
    @exclusivity(unchecked) private var current: [Notification?] = []
    @exclusivity(unchecked) private var position = 0
    @exclusivity(unchecked) private var sawLast = false
    /// Finished notifications on their way back to the decoding thread (`retire`).
    @exclusivity(unchecked) private var retired: [Notification] = []
    private let graveyard: NotificationGraveyard

    /// Starts decoding `reader`'s lines. With `assignIDs`, a notification without an apns-id
    /// gets a random one (the sender would give it one anyway; here it costs the loop nothing).
    init(reader: any LineReader, path: String, context: CommandContext, decoder: BulkRequestDecoder, assignIDs: Bool) {
        handover = BatchHandover(capacity: Self.batchesAhead)
        graveyard = NotificationGraveyard()
        var decoder = decoder
        decoder.assignIDs = assignIDs
        decoder = decoder.prepared()
        let decoding = LineDecoding(
            reader: reader, path: path, context: context, decoder: decoder, handover: handover, graveyard: graveyard)
        DispatchQueue(label: "herald.bulk-decode").async { decoding.run() }
    }

    func makeIterator() -> BulkRequests { self }

    func next() -> Notification? {
        while true {
            while position < current.count {
                position += 1
                if let notification = current[position - 1].take() { return notification }
            }
            if sawLast { return nil }
            handover.recycle(&current)
            let batch = handover.take()
            sawLast = batch.last
            current = batch.notifications
            position = 0
        }
    }

    /// Takes a notification the sender has finished with, to be freed on the decoding thread
    /// (where its strings were allocated). For the consumer of `next()`, on its thread.
    func retire(_ notification: consuming Notification) {
        retired.append(notification)
        if retired.count == NotificationGraveyard.arraySize { graveyard.bury(&retired) }
    }

    /// Lines that could not become a notification so far.
    var invalid: Int { handover.progress.withLock { $0.invalid } }
    /// The error that ended reading early, if any.
    var readError: InputError? { handover.progress.withLock { $0.readError } }
    /// Input bytes decoded so far (lines and their ends), for progress.
    var bytesConsumed: Int { handover.progress.withLock { $0.bytesConsumed } }

    /// Stops decoding (the sender will not ask for more) and waits until the decoding thread has
    /// let go of the reader. Counts read afterwards are final.
    func stop() {
        handover.stop()
    }
}

/// What the decoding thread tells the sender besides notifications.
struct DecodingProgress {
    var invalid = 0
    var readError: InputError?
    var bytesConsumed = 0
}

/// Batches from the decoding thread to the sender: a bounded queue with one lock per batch.
final class BatchHandover: Sendable {
    struct Batch {
        /// In line order (optional so that the sender can move each one out).
        var notifications: [Notification?]
        /// The end of the stream: no batch follows.
        var last: Bool
    }

    private struct State {
        var batches: [Batch] = []
        /// Emptied batch arrays back from the sender, for the decoding thread to fill again: a
        /// batch is a block of several kilobytes, and allocating one per batch on one thread and
        /// freeing it on the other made glibc consolidate its free lists each time (~1% of a run).
        var spares: [[Notification?]] = []
        var stopped = false
    }

    private let state = Mutex(State())
    let progress = Mutex(DecodingProgress())
    /// Counts batches waiting (signalled per batch put).
    private let available = DispatchSemaphore(value: 0)
    /// Counts room for batches (signalled per batch taken).
    private let room: DispatchSemaphore
    /// Signalled once when the decoding thread has finished.
    private let finished = DispatchSemaphore(value: 0)

    init(capacity: Int) {
        // Made at zero and raised: libdispatch traps when a semaphore is freed below the value
        // it was made with, which this one is when the sender stops with batches untaken.
        room = DispatchSemaphore(value: 0)
        for _ in 0..<capacity { room.signal() }
    }

    /// Decoding thread: waits for room, then hands `batch` over. False when the sender stopped.
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

    /// Decoding thread: an emptied batch array to fill, if the sender has handed one back.
    func spareBatch() -> [Notification?]? {
        state.withLock { $0.spares.popLast() }
    }

    /// Sender: hands back the batch it has emptied (every element taken), leaving `batch` empty.
    func recycle(_ batch: inout [Notification?]) {
        guard batch.capacity > 0 else { return }
        var spare: [Notification?] = []
        swap(&spare, &batch)
        spare.removeAll(keepingCapacity: true)
        state.withLock { state in
            if state.spares.count < 2 { state.spares.append(spare) }
        }
    }

    /// Decoding thread: it has finished and holds nothing any more.
    func decodingFinished() {
        finished.signal()
    }

    /// Sender: the next batch, waiting for it if decoding is behind.
    func take() -> Batch {
        available.wait()
        // At most `capacity` batches wait: removing the first moves a few words.
        let batch = state.withLock { $0.batches.removeFirst() }
        room.signal()
        return batch
    }

    /// Sender: no more batches are wanted; returns once the decoding thread has finished.
    func stop() {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        room.signal()  // a decoding thread waiting for room wakes, sees `stopped` and ends
        finished.wait()
    }
}

/// The decoding thread's work: lines into batches of notifications.
private final class LineDecoding: @unchecked Sendable {
    // SAFETY: handed to the decoding thread at creation and used only there from then on (the
    // reader included: its creator no longer touches it).
    private let reader: any LineReader
    private let path: String
    private let context: CommandContext
    private let decoder: BulkRequestDecoder
    private let handover: BatchHandover
    private let graveyard: NotificationGraveyard

    init(
        reader: any LineReader, path: String, context: CommandContext, decoder: BulkRequestDecoder,
        handover: BatchHandover, graveyard: NotificationGraveyard
    ) {
        self.reader = reader
        self.path = path
        self.context = context
        self.decoder = decoder
        self.handover = handover
        self.graveyard = graveyard
    }

    func run() {
        defer {
            graveyard.close()
            handover.decodingFinished()
        }
        var number = 0
        var invalid = 0
        var batch: [Notification?] = []
        batch.reserveCapacity(BulkRequests.batchSize)
        var sweeper = NotificationGraveyard.Sweeper()
        var readError: InputError?
        while true {
            sweeper.freeOne(into: graveyard)
            var outcome = LineOutcome.blank
            do throws(InputError) {
                // Decoded where the line lies in the reader's buffer (no copy of it per line).
                guard try reader.withNextLine({ line in outcome = decode(line, number: number + 1) }) else { break }
            } catch {
                readError = error
                break
            }
            number += 1
            switch consume outcome {
            case .blank: continue
            case .invalid: invalid += 1
            case .notification(let decoded): batch.append(decoded)
            }
            if batch.count == BulkRequests.batchSize {
                publish(invalid: invalid, readError: nil)
                guard handover.put(.init(notifications: batch, last: false)) else { return }
                sweeper.collect(from: graveyard)
                if let spare = handover.spareBatch() {
                    batch = spare
                } else {
                    batch = []
                    batch.reserveCapacity(BulkRequests.batchSize)
                }
            }
        }
        publish(invalid: invalid, readError: readError)
        _ = handover.put(.init(notifications: batch, last: true))
    }

    /// What a line gave.
    private enum LineOutcome {
        /// Only spaces and tabs: skipped.
        case blank
        /// Reported on standard error.
        case invalid
        /// With an apns-id when the decoder assigns them.
        case notification(Notification)
    }

    private func decode(_ line: UnsafeBufferPointer<UInt8>, number: Int) -> LineOutcome {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return .blank }
        do throws(BulkRequestDecoder.LineError) {
            return .notification(try decoder.decode(line, number: number))
        } catch {
            context.standardError("herald send: --requests \(path), \(error)\n")
            return .invalid
        }
    }

    private func publish(invalid: Int, readError: InputError?) {
        let consumed = reader.bytesConsumed
        handover.progress.withLock { progress in
            progress.invalid = invalid
            progress.readError = readError
            progress.bytesConsumed = consumed
        }
    }
}
