// Finished notifications go back to the decoding thread to be freed there.
//
//   consumer (loop): finished notification -> `retired` (DecodedRequestStream) -> every 256: bury -> `full`
//   decoding thread: after each batch it hands over, takes what `full` holds (`Sweeper`); frees one
//                    notification per line it decodes; emptied arrays go to `empty` for the sender

//
// A notification's strings (its token, its apns-id) are allocated on the decoding thread; freed on
// the loop, every free went to glibc's arena under its lock (the loop's own cache of free blocks
// of that size is always full, since the loop never allocates them), on the thread that bounds a
// bulk send's rate. Freed where they were made, they go back to that thread's cache and the next
// line reuses them. One per line, not a whole array at once:
// glibc's per-thread cache keeps only seven blocks of a size, so freeing 256 notifications in a row
// sent most of them to the arena all the same.
//
// Bounded: at most `maximumWaiting` arrays wait; beyond that, or once decoding has finished, the
// sender frees its arrays itself.

import APNs
import Synchronization

/// Arrays of finished notifications on their way back to the decoding thread.
///
/// Thread-safety: `bury` from the sender (one thread), `take`, `giveBack` and `close` from the
/// decoding thread. Lifecycle: open from creation until `close` (decoding finished); burying after that
/// frees on the caller's thread.
final class NotificationGraveyard: Sendable {
    static let arraySize = 256
    static let maximumWaiting = 16

    private struct State {
        var full: [[Notification]] = []
        var empty: [[Notification]] = []
        var closed = false
    }

    private let state = Mutex(State())

    /// Sender: takes `notifications` (leaving it empty, ready to fill again) to be freed by the
    /// decoding thread, or frees them here when that thread cannot take them.
    func bury(_ notifications: inout [Notification]) {
        var handed: [Notification] = []
        swap(&handed, &notifications)
        let spare = state.withLock { state -> [Notification]?? in
            guard !state.closed, state.full.count < Self.maximumWaiting else { return .none }
            state.full.append(handed)
            return .some(state.empty.popLast())
        }
        switch spare {
        case .none:  // not taken: freed here, the array kept
            handed.removeAll(keepingCapacity: true)
            notifications = handed
        case .some(.some(let array)):
            notifications = array
        case .some(.none):
            notifications.reserveCapacity(Self.arraySize)
        }
    }

    /// Decoding thread: the arrays handed over so far (their notifications to be freed there).
    func take() -> [[Notification]] {
        var taken: [[Notification]] = []
        state.withLock { state in swap(&taken, &state.full) }
        return taken
    }

    /// Decoding thread: an array emptied, for the sender to fill again.
    func giveBack(_ array: [Notification]) {
        state.withLock { state in
            if state.empty.count < 4 { state.empty.append(array) }
        }
    }

    /// Decoding thread, when it ends: later burials free on the sender.
    func close() {
        state.withLock { $0.closed = true }
    }

    /// The decoding thread's side: frees one taken notification per line decoded.
    struct Sweeper {
        private var arrays: [[Notification]] = []

        /// Takes what the sender has handed over, unless enough is still to be freed.
        mutating func collect(from graveyard: NotificationGraveyard) {
            guard arrays.count < 2 else { return }
            arrays.append(contentsOf: graveyard.take())
        }

        /// Frees one notification (a line's worth of blocks, for the next line to reuse).
        mutating func freeOne(into graveyard: NotificationGraveyard) {
            guard let last = arrays.indices.last else { return }
            if arrays[last].popLast() != nil, !arrays[last].isEmpty { return }
            if let emptied = arrays.popLast() { graveyard.giveBack(emptied) }
        }
    }
}
