import Synchronization

/// Work queued on the loop thread itself: no lock, and closures need not be `Sendable`.
enum LoopWork {
    case closure(() -> Void)
    /// A job of a task that prefers the loop (nonisolated code).
    case job(UnownedJob)
    /// A job of an actor whose executor is the loop (``LoopIsolation``).
    case isolatedJob(UnownedJob)
}

/// Work handed to the loop by other threads, through the mutex-protected inbox.
enum InboxWork: Sendable {
    case closure(@Sendable () -> Void)
    case job(UnownedJob)
    case isolatedJob(UnownedJob)
}

/// The cross-thread queue; `isOpen` turns false once, when shutdown is requested.
struct Inbox {
    var items: [InboxWork] = []
    var isOpen = true
}

/// A registered descriptor. `generation` tells events for this registration from stale ones for an
/// earlier descriptor with the same number (closed and reused within one `epoll_wait` batch).
struct Registration {
    let handler: any IOHandler
    var interest: IOInterest
    let generation: UInt32
}

extension EventLoop {
    /// Runs `work` on this loop after the work already queued here, before the next wait for I/O.
    /// Loop thread only; `work` need not be `Sendable` (it never leaves the loop). Used to coalesce:
    /// many submissions in one iteration, one flush at its end.
    public func executeSoon(_ work: @escaping () -> Void) {
        preconditionInEventLoop()
        local.append(.closure(work))
    }

    /// Runs `work` on this loop once the work queued here has run (up to a few rounds of it), just
    /// before the loop waits for I/O again. Loop thread only. For flushes: every request submitted
    /// while the loop works through what one wake-up brought goes out in one write.
    public func executeBeforeWait(_ work: @escaping () -> Void) {
        preconditionInEventLoop()
        beforeWait.append(work)
    }
}
