import Glibc
import Synchronization

extension EventLoop {
    /// Stops the loop and waits for its thread to end; does nothing more when called again.
    ///
    /// The loop first runs all work accepted by ``execute(_:)``, calls `hangup()` on each handler still
    /// registered, and drops pending timers without firing them. Afterwards ``execute(_:)`` returns false
    /// and drops its work, timers scheduled from other threads are dropped, and executor jobs (tasks
    /// preferring the loop, actors on its executor) run one at a time on a shared fallback queue, off
    /// the loop thread, so they can finish. End the work that runs on a loop before shutting it down.
    public func shutdown() async {
        requestStop()
        // Wait off the loop: this task may prefer the loop as its executor, which is going away.
        await withTaskExecutorPreference(globalConcurrentExecutor) {
            await self.waitForExit()
            self.joinThread()
        }
    }

    /// Stops the loop; blocks until its thread has ended, except on the loop thread itself, where it
    /// only asks the loop to stop after the current iteration.
    ///
    /// See ``shutdown()`` for what happens to queued work; prefer it from async code.
    public func shutdownGracefully() {
        requestStop()
        if inEventLoop { return }
        joinThread()
    }

    /// Closes the inbox and wakes the loop, once.
    func requestStop() {
        let wasOpen = inbox.withLock { inbox -> Bool in
            inboxOrder.acquire(inboxAddress)
            defer {
                inbox.isOpen = false
                inboxOrder.release(inboxAddress)
            }
            return inbox.isOpen
        }
        if wasOpen { wakeUp() }
    }

    func waitForExit() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let exited = exitState.withLock { state -> Bool in
                if state.exited { return true }
                state.waiters.append(continuation)
                return false
            }
            if exited { continuation.resume() }
        }
    }

    /// Joins the loop thread once; concurrent callers wait for the first to finish.
    func joinThread() {
        joinState.withLock { state in
            guard let thread = state.thread, !state.joined else { return }
            pthread_join(thread, nil)
            state.joined = true
        }
    }

    /// True once the loop thread has left its loop.
    public var isShutDown: Bool {
        exitState.withLock { $0.exited }
    }
}
