// The loop thread: started in init, running iterations until shutdown is requested, then finishing.
import Glibc
import Synchronization

/// Set by the loop thread as its last act; shutdown() waits on it.
struct ExitState {
    var exited = false
    var waiters: [CheckedContinuation<Void, Never>] = []
}

/// The pthread to join; never locked by the loop thread while it runs.
struct JoinState {
    var thread: pthread_t?
    var joined = false
}

/// The pthread entry point; the argument is a retained EventLoop, released when the loop finishes.
private func eventLoopThreadMain(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let argument else { return nil }
    let loop = Unmanaged<EventLoop>.fromOpaque(argument).takeRetainedValue()
    loop.runThread()
    return nil
}

extension EventLoop {
    /// The epoll data of the eventfd's registration (descriptor tokens are never all ones).
    static let wakeToken = UInt64.max
    /// Local batches run at most per iteration before looking at I/O again.
    static let localRoundsPerIteration = 8

    func startThread() throws(SystemError) {
        let retained = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, eventLoopThreadMain, retained.toOpaque())
        guard result == 0 else {
            retained.release()
            throw SystemError(function: "pthread_create", errno: result)
        }
        joinState.withLock { $0.thread = thread }
    }

    func runThread() {
        loopThread.store(pthread_self(), ordering: .relaxed)
        if let setName = LinuxSymbols.setThreadName {
            _ = setName(pthread_self(), String(name.utf8.prefix(15)))
        }
        while runIteration() {}
        finish()
    }

    /// One iteration; false once shutdown was requested (or epoll_wait failed, which means a bug).
    private func runIteration() -> Bool {
        iterations &+= 1
        // Work the batch queues (a resumed task's next step, the flush after a submit) runs before
        // the next epoll_wait too, for a few rounds: one wake-up carries a request through its
        // steps with one system call, not one per step. The bound keeps I/O and timers from waiting
        // on endless local work.
        var rounds = 0
        repeat {
            runLocalBatch()
            rounds += 1
        } while !local.isEmpty && rounds < Self.localRoundsPerIteration
        runBeforeWait()
        let timeout = local.isEmpty && beforeWait.isEmpty ? timers.timeoutMilliseconds(now: EventLoop.now()) : 0
        let count: Int
        do {
            count = try System.epollWait(epollFD, into: events, timeout: timeout)
        } catch {
            return false
        }
        var woken = false
        for index in 0..<count {
            let token = events.data(at: index)
            if token == Self.wakeToken {
                woken = true
            } else {
                dispatch(token: token, events: events.events(at: index))
            }
        }
        var open = true
        if woken {
            _ = try? System.eventFDConsume(wakeFD)  // reset first, then drain: see EventLoop.swift
            open = runInbox()
        }
        fireTimers()
        return open
    }

    /// Runs the work queued on the loop so far; work it queues waits for the next iteration.
    private func runLocalBatch() {
        guard !local.isEmpty else { return }
        swap(&local, &localBatch)
        for index in localBatch.indices { run(localBatch[index]) }
        localBatch.removeAll(keepingCapacity: true)
    }

    /// Runs the before-wait work queued so far; work it queues waits for the next iteration.
    private func runBeforeWait() {
        guard !beforeWait.isEmpty else { return }
        swap(&beforeWait, &beforeWaitBatch)
        for index in beforeWaitBatch.indices { beforeWaitBatch[index]() }
        beforeWaitBatch.removeAll(keepingCapacity: true)
    }

    /// Takes everything in the inbox and runs it; returns whether the inbox is still open.
    private func runInbox() -> Bool {
        var batch = inboxBatch
        inboxBatch = []
        let open = inbox.withLock { inbox -> Bool in
            inboxOrder.acquire(inboxAddress)
            defer { inboxOrder.release(inboxAddress) }
            swap(&inbox.items, &batch)
            return inbox.isOpen
        }
        for index in batch.indices { run(batch[index]) }
        batch.removeAll(keepingCapacity: true)
        inboxBatch = batch
        return open
    }

    @inline(__always)
    private func run(_ work: LoopWork) {
        switch work {
        case .closure(let body): body()
        case .job(let job): runJob(job)
        case .isolatedJob(let job): runIsolatedJob(job)
        }
    }

    @inline(__always)
    private func run(_ work: InboxWork) {
        switch work {
        case .closure(let body): body()
        case .job(let job): runJob(job)
        case .isolatedJob(let job): runIsolatedJob(job)
        }
    }

    /// Fires the timers due now; timers they schedule wait for the next iteration, even if due.
    private func fireTimers() {
        guard let deadline = timers.earliestDeadline else { return }
        let now = EventLoop.now()
        guard deadline <= now else { return }
        let limit = timers.nextSequence
        while let work = timers.popExpired(now: now, scheduledBefore: limit) { work() }
    }

    /// After shutdown was requested: run all accepted work, hang up the remaining handlers, drop
    /// timers, and tell shutdown() waiters.
    private func finish() {
        inbox.withLock { inbox in
            inboxOrder.acquire(inboxAddress)
            inbox.isOpen = false  // already closed unless epoll_wait failed
            inboxOrder.release(inboxAddress)
        }
        runAllQueued()
        for fd in registrations.indices {
            guard let registration = registrations[fd] else { continue }
            registration.handler.hangup()
            // Forget it without epoll_ctl: the handler may have closed it, and the epoll instance
            // goes away with the loop.
            if registrations[fd]?.generation == registration.generation { registrations[fd] = nil }
        }
        runAllQueued()
        registrations.removeAll()
        timers.removeAll()
        remoteTimers.removeAll()
        loopThread.store(0, ordering: .relaxed)
        let waiters = exitState.withLock { state in
            state.exited = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func runAllQueued() {
        _ = runInbox()
        while !local.isEmpty || !beforeWait.isEmpty {
            runLocalBatch()
            runBeforeWait()
        }
    }
}
