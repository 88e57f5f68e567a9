// The notifications of an NDJSON request stream, read and decoded on a thread of their own.
//
//   decoding thread: skip `skipLines` lines -> read line -> decode (NDJSONRequestDecoder, linted)
//                    -> apns-id -> batch of `batchSize` (with each line's number, and reports of
//                    refused lines and new lint findings at their place) -> wait for room (at most
//                    `batchesAhead` batches wait) -> hand over
//                    ... end of input or read error -> last batch, marked `last`
//   consumer (the transport's loop): `next()` pops from its current batch, passing the reports it
//                    meets to `report` in line order; an empty batch takes the next one (one lock
//                    per batch), waiting for it when decoding is behind. `interruption` set: `next()`
//                    ends the stream at once (what was handed out is all there is).
//
// Reports travel with the notifications instead of being printed by the decoding thread, so that
// what was reported, counted and sent is the same prefix of the input when a send stops early,
// and `linesAccountedFor` can say where to resume. Memory stays bounded: `batchSize *
// batchesAhead` decoded notifications at most wait for the consumer.

import APNs
import Dispatch
import Synchronization

/// The notifications of an NDJSON request stream, read, decoded and linted ahead of the consumer on
/// a thread of their own, handed over in batches (a `Sequence` for `APNsClient.sendEach`'s `next`).
/// Lines that cannot become a notification, and lint findings, go to `report` in line order.
///
/// Thread-safety: `next()`, `retire` and the consumer's counts (`refused`, `warned`,
/// `linesAccountedFor`, `lastLine`) are for one consumer thread at a time (or after it has
/// finished); `interruption`, `readError`, `bytesConsumed` and `readSoFar` may be used from any
/// thread.
/// Lifecycle: decoding starts in `init` and ends at the end of input, or at `stop()`, which the
/// owner must call when it is done.
public final class DecodedRequestStream: Sequence, IteratorProtocol {
    static let batchSize = 256
    static let batchesAhead = 8

    private let handover: BatchHandover
    private let report: (LineReport) -> Void
    /// Ends the stream early, from any thread (a signal handler's queue): see `Interruption`.
    public let interruption: Interruption
    /// The batch being handed out; `take()` moves each notification out (no copy, no retain).
    /// Unchecked exclusivity: touched once per notification by its one consumer, never across a
    /// call that could re-enter `next()` (a dynamic check is a runtime call per access, and the
    /// hand-out itself is a few loads and stores).
    @exclusivity(unchecked) private var current = BatchHandover.Batch()
    @exclusivity(unchecked) private var position = 0
    /// The index of `current.reports` to deliver next.
    @exclusivity(unchecked) private var reportIndex = 0
    @exclusivity(unchecked) private var finished = false
    /// Finished notifications on their way back to the decoding thread (`retire`).
    @exclusivity(unchecked) private var retired: [Notification] = []
    private let graveyard: NotificationGraveyard

    /// Lines refused so far (reported as `.refused`), as far as the consumer has come.
    @exclusivity(unchecked) public private(set) var refused = 0
    /// Of `refused`, the lines refused for a lint error.
    @exclusivity(unchecked) public private(set) var refusedByLint = 0
    /// Notifications handed out whose payload and headers have lint findings (sent all the same).
    @exclusivity(unchecked) public private(set) var warned = 0
    /// The line number (from 1) of the notification `next()` last returned; 0 before the first.
    @exclusivity(unchecked) public private(set) var lastLine = 0
    /// Every line up to this one has been handed out, refused or skipped (blank, or before
    /// `skipLines`): a send that stops early resumes after it (`skipLines`).
    @exclusivity(unchecked) public private(set) var linesAccountedFor = 0

    /// Starts decoding `reader`'s lines after the first `skipLines` (numbers stay the input's).
    /// `report` is called by `next()`, on the consumer's thread. With `decoder.assignIDs`, a
    /// notification without an apns-id gets a random one on the decoding thread.
    public init(
        reader: any LineReader, decoder: NDJSONRequestDecoder, skipLines: Int = 0,
        report: @escaping (LineReport) -> Void
    ) {
        handover = BatchHandover(capacity: Self.batchesAhead)
        interruption = Interruption(handover)
        graveyard = NotificationGraveyard()
        self.report = report
        linesAccountedFor = skipLines
        let decoding = LineDecoding(
            reader: reader, decoder: decoder.prepared(), skipLines: skipLines, handover: handover,
            graveyard: graveyard)
        DispatchQueue(label: "herald.bulk-decode").async { decoding.run() }
    }

    public func makeIterator() -> DecodedRequestStream { self }

    public func next() -> APNsNotification? {
        if finished || interruption.isSet { return nil }
        while true {
            while position < current.notifications.count {
                if position == current.nextReportAt { deliverReports() }
                let tag = current.tags[position]
                position += 1
                if let notification = current.notifications[position - 1].take() {
                    lastLine = tag.line
                    linesAccountedFor = tag.line
                    if tag.warned { warned += 1 }
                    return notification
                }
            }
            deliverReports()
            linesAccountedFor = Swift.max(linesAccountedFor, current.throughLine)
            if current.last {
                finished = true
                return nil
            }
            handover.recycle(&current)
            current = handover.take()
            position = 0
            reportIndex = 0
            if interruption.isSet { return nil }  // woken by it, or it came while waiting
        }
    }

    /// Delivers the reports placed before the notification at `position` (all that are left at
    /// the end of a batch).
    private func deliverReports() {
        while reportIndex < current.reports.count, current.reports[reportIndex].before <= position {
            let placed = current.reports[reportIndex]
            reportIndex += 1
            if case .refused(_, let byLint) = placed.report.kind {
                refused += 1
                if byLint { refusedByLint += 1 }
            }
            linesAccountedFor = Swift.max(linesAccountedFor, placed.report.line)
            report(placed.report)
        }
        current.nextReportAt = reportIndex < current.reports.count ? current.reports[reportIndex].before : -1
    }

    /// Ends a stream early: once set, `next()` returns nil (the notifications it handed out are all
    /// there are; `linesAccountedFor` says where to resume).
    ///
    /// Thread-safety: `Sendable`; set from any thread.
    public final class Interruption: Sendable {
        private let flag = Atomic<Bool>(false)
        private let handover: BatchHandover

        init(_ handover: BatchHandover) {
            self.handover = handover
        }

        /// Sets the flag and wakes a consumer waiting for the next batch (a slow input).
        public func interrupt() {
            guard !flag.exchange(true, ordering: .relaxed) else { return }
            handover.wakeConsumer()
        }

        public var isSet: Bool { flag.load(ordering: .relaxed) }
    }

    /// Takes a notification the consumer has finished with, to be freed on the decoding thread
    /// (where its strings were allocated). For the consumer of `next()`, on its thread.
    public func retire(_ notification: consuming APNsNotification) {
        retired.append(notification)
        if retired.count == NotificationGraveyard.arraySize { graveyard.bury(&retired) }
    }

    /// The error that ended reading early, if any.
    public var readError: LineReaderError? { handover.progress.withLock { $0.readError } }
    /// Input bytes decoded so far (lines and their ends), for progress.
    public var bytesConsumed: Int { handover.progress.withLock { $0.bytesConsumed } }
    /// Lines read so far (skipped ones included) and the bytes they took, read together: their
    /// ratio estimates how many lines an input of known size holds.
    public var readSoFar: (lines: Int, bytes: Int) {
        handover.progress.withLock { ($0.linesRead, $0.bytesConsumed) }
    }

    /// Stops decoding (the consumer will not ask for more) and, with `waitForDecoding`, waits until
    /// the decoding thread has let go of the reader. Not waiting suits an interrupted stream whose
    /// input may never come (a pipe): the thread ends when its read returns.
    public func stop(waitForDecoding: Bool = true) {
        handover.stop(waiting: waitForDecoding)
    }
}

/// A refused line, or the lint findings of the first line with a payload and headers (later lines
/// with the same ones are not reported again, only counted in `warned`).
public struct LineReport: Sendable {
    public enum Kind: Sendable {
        /// The line is not sent: why (a bad line, a line over the reader's limit, or a lint error:
        /// `byLint`).
        case refused(String, byLint: Bool)
        /// Sent, with these findings (errors when lint errors do not refuse, and warnings).
        case lint([Finding])
    }

    /// The line's number in the input, from 1.
    public let line: Int
    public let kind: Kind
}

/// What the decoding thread tells the consumer besides notifications.
struct DecodingProgress {
    var readError: LineReaderError?
    var bytesConsumed = 0
    var linesRead = 0
}
