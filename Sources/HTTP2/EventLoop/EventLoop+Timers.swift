import Synchronization

extension EventLoop {
    /// Runs `work` on the loop thread once `nanoseconds` have passed (monotonic clock). Loop thread only.
    ///
    /// Timers fire in deadline order (equal deadlines in scheduling order), never early; the loop
    /// wakes with millisecond granularity, rounded up. Timers pending at shutdown are dropped.
    @discardableResult
    public func schedule(after nanoseconds: UInt64, _ work: @escaping () -> Void) -> TimerID {
        preconditionInEventLoop()
        return timers.schedule(at: Self.deadline(after: nanoseconds), work)
    }

    /// Cancels a timer; returns false if it fired or was cancelled already. Loop thread only.
    ///
    /// For a timer from ``scheduleFromAnyThread(after:_:)`` this is ``cancelFromAnyThread(_:)``, and
    /// returns true if the timer had not fired.
    @discardableResult
    public func cancel(_ id: TimerID) -> Bool {
        preconditionInEventLoop()
        guard let remote = id.remote else { return timers.cancel(id) }
        let wasPending = !remote.cancelled.exchange(true, ordering: .acquiringAndReleasing)
        if let scheduled = remoteTimers.removeValue(forKey: id.rawValue) { timers.cancel(scheduled) }
        return wasPending  // firing sets the flag too
    }

    /// Like ``schedule(after:_:)``, from any thread; the delay counts from this call.
    @discardableResult
    public func scheduleFromAnyThread(after nanoseconds: UInt64, _ work: @escaping @Sendable () -> Void)
        -> TimerID
    {
        if inEventLoop { return schedule(after: nanoseconds, work) }
        let deadline = Self.deadline(after: nanoseconds)
        let sequence = remoteTimerCounter.wrappingAdd(1, ordering: .relaxed).newValue & ~(1 << 63)
        let remote = RemoteTimer()
        let id = TimerID(remote: remote, sequence: sequence)
        submit(
            .closure { [self] in
                guard !remote.cancelled.load(ordering: .acquiring) else { return }
                remoteTimers[id.rawValue] = timers.schedule(at: deadline) { [self] in
                    remoteTimers.removeValue(forKey: id.rawValue)
                    // Claim the timer, so a cancel racing with this firing reports it as fired.
                    guard !remote.cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
                    work()
                }
            })
        return id
    }

    /// Cancels a timer from any thread, without waiting for the loop.
    ///
    /// A timer from ``scheduleFromAnyThread(after:_:)`` does not start after this returns (it may
    /// be running already). A loop-local ID is cancelled when the loop gets to it, so it may still
    /// fire if it is due before then.
    public func cancelFromAnyThread(_ id: TimerID) {
        if inEventLoop {
            cancel(id)
            return
        }
        id.remote?.cancelled.store(true, ordering: .releasing)
        submit(
            .closure { [self] in
                if id.isRemote {
                    if let scheduled = remoteTimers.removeValue(forKey: id.rawValue) { timers.cancel(scheduled) }
                } else {
                    timers.cancel(id)
                }
            })
    }

    private static func deadline(after nanoseconds: UInt64) -> UInt64 {
        let (deadline, overflow) = now().addingReportingOverflow(nanoseconds)
        return overflow ? .max : deadline
    }
}
