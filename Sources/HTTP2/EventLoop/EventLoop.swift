// EventLoop: one thread blocked in epoll_wait that owns its descriptors, timers and queued work.
//
//   other thread --execute--> inbox (Mutex) --eventfd write, only when the inbox goes empty->non-empty--+
//   loop thread  --execute--> local queue (no lock, no wake-up)                                          |
//   each iteration: run the local batch (and what it queues, up to 8 rounds) -> the before-wait
//                   work (flushes) -> epoll_wait(0 if local work is left, else until the earliest <-+
//                   timer) -> I/O handlers -> if the eventfd fired: reset it, then drain and run the inbox
//                   -> expired timers
// The eventfd is reset *before* the inbox is drained, so a submitter that finds the inbox empty after
// a drain always writes a fresh wake-up: no submission waits for an unrelated event.
import Glibc
import Synchronization

/// An event loop: one thread blocked in `epoll_wait`, running I/O handlers, timers and submitted work.
///
/// Lifecycle: `init` starts the thread; ``shutdown()`` or ``shutdownGracefully()`` stops and joins it
/// (both idempotent). A running loop keeps itself alive, so a loop that is never shut down leaks its
/// thread. Work accepted by ``execute(_:)`` before shutdown always runs; later submissions are refused,
/// and executor jobs that arrive later run on a shared fallback queue (see ``shutdown()``).
///
/// Thread-safety: ``execute(_:)``, ``scheduleFromAnyThread(after:_:)``, ``cancelFromAnyThread(_:)``,
/// ``inEventLoop``, the executor conformances and shutdown may be used from any thread. Everything
/// else (I/O registration, ``schedule(after:_:)``, ``cancel(_:)``) is loop-thread only, which debug
/// builds check.
public final class EventLoop: @unchecked Sendable {
    // SAFETY: the loop-owned state below is only touched on the loop thread (checked in debug builds
    // by preconditionInEventLoop); state shared across threads is in Mutex and Atomic values; the
    // descriptors are immutable and stay open until deinit, when no thread can use the loop anymore.

    /// The name given at creation; also the thread's name (truncated to 15 bytes).
    public let name: String

    let epollFD: Int32
    let wakeFD: Int32
    let inbox = Mutex(Inbox())
    /// Makes the inbox's handoffs visible to ThreadSanitizer (see ThreadSanitizerOrder); inert
    /// outside a `-sanitize=thread` binary.
    let inboxOrder = ThreadSanitizerOrder()
    let exitState = AnnotatedMutex(ExitState())
    let joinState = AnnotatedMutex(JoinState())
    /// The loop thread's pthread_t while it runs, 0 before and after.
    let loopThread = Atomic<UInt>(0)
    /// How many times the eventfd was written to wake the loop (for tests and diagnostics).
    let wakeUps = Atomic<Int>(0)
    /// The loop's serial executor, for actors isolated to the loop thread (see EventLoop+Executor.swift).
    let isolation = LoopIsolation()
    let remoteTimerCounter = Atomic<UInt64>(0)

    // Loop-owned.
    // SAFETY (`@exclusivity(unchecked)`): loop thread only; every access is momentary (an append, a
    // swap, one element read before running it), so none overlaps another. Dynamic checks would be
    // a runtime call per access, several per request.
    @exclusivity(unchecked) var local: [LoopWork] = []
    @exclusivity(unchecked) var localBatch: [LoopWork] = []
    /// Run once per iteration after the local work, right before waiting for I/O (flushes).
    @exclusivity(unchecked) var beforeWait: [() -> Void] = []
    @exclusivity(unchecked) var beforeWaitBatch: [() -> Void] = []
    var inboxBatch: [InboxWork] = []
    var timers = TimerHeap()
    var remoteTimers: [UInt64: TimerID] = [:]
    var registrations: [Registration?] = []
    var nextGeneration: UInt32 = 0
    let events = EpollEventBuffer(capacity: 256)
    /// Loop iterations so far (for tests: a loop waiting for a timer must not spin).
    var iterations = 0
    /// Executor jobs run so far (loop thread only; tests count hops with it).
    @exclusivity(unchecked) var jobsRun = 0

    /// Creates the loop's epoll instance and eventfd and starts its thread.
    public init(name: String = "herald-loop") throws(SystemError) {
        self.name = name
        let epollFD = try System.epollCreate()
        let wakeFD: Int32
        do {
            wakeFD = try System.eventFD()
        } catch {
            try? System.close(epollFD)
            throw error
        }
        do {
            try System.epollCtl(epollFD, Epoll.add, wakeFD, events: Epoll.input, data: Self.wakeToken)
        } catch {
            try? System.close(wakeFD)
            try? System.close(epollFD)
            throw error
        }
        self.epollFD = epollFD
        self.wakeFD = wakeFD
        isolation.loop = self
        try startThread()  // on failure deinit closes the descriptors
    }

    deinit {
        // The running thread holds a reference, so deinit runs only after it has left its loop:
        // join it, unless this is that thread releasing the last reference (then detach it).
        joinState.withLock { state in
            guard let thread = state.thread, !state.joined else { return }
            if pthread_equal(thread, pthread_self()) != 0 {
                pthread_detach(thread)
            } else {
                pthread_join(thread, nil)
            }
            state.joined = true
        }
        try? System.close(wakeFD)
        try? System.close(epollFD)
    }

    /// True on this loop's thread.
    public var inEventLoop: Bool {
        loopThread.load(ordering: .relaxed) == pthread_self()
    }

    /// Stops a debug build when called off this loop's thread; does nothing in release builds.
    public func preconditionInEventLoop(file: StaticString = #fileID, line: UInt = #line) {
        assert(
            inEventLoop, "EventLoop '\(name)': loop-thread-only API called from another thread", file: file, line: line)
    }

    /// Runs `work` on the loop thread, after the work already submitted from the same thread.
    ///
    /// From the loop thread the work joins a local queue, run before the next `epoll_wait` (which
    /// then does not block): no lock, no wake-up. From another thread it joins the inbox, and the
    /// eventfd is written only if the inbox was empty. Returns false, dropping `work` without running
    /// it, once the loop has been asked to shut down; true means it will run exactly once.
    @discardableResult
    public func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
        if inEventLoop {
            local.append(.closure(work))
            return true
        }
        return submit(.closure(work))
    }

    /// Monotonic time in nanoseconds (`CLOCK_MONOTONIC`), the clock timers use.
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Appends to the inbox from another thread; wakes the loop if the inbox was empty.
    @discardableResult
    func submit(_ work: InboxWork) -> Bool {
        let (accepted, wake) = inbox.withLock { inbox -> (Bool, Bool) in
            inboxOrder.acquire(inboxAddress)
            defer { inboxOrder.release(inboxAddress) }
            guard inbox.isOpen else { return (false, false) }
            inbox.items.append(work)
            return (true, inbox.items.count == 1)
        }
        if wake { wakeUp() }
        return accepted
    }

    /// The address ThreadSanitizer's inbox annotations are made on (any address unique to this loop).
    var inboxAddress: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    func wakeUp() {
        wakeUps.add(1, ordering: .relaxed)
        // .wouldBlock means the counter is full, so the loop is awake already; other errors would
        // mean a closed descriptor, which cannot happen before deinit.
        _ = try? System.eventFDSignal(wakeFD)
    }
}
