// The loop as a Swift concurrency executor (SE-0392 custom actor executors, SE-0417 task executor
// preference), in two roles with two identities:
// - the loop itself is a task executor: `Task(executorPreference: loop)` runs the task's
//   nonisolated code on the loop thread. Its jobs run with `runSynchronously(on: taskExecutor)`, so
//   the runtime sees the generic executor (no isolation) as current, which is exactly what such code
//   asks for: each `await` that comes back to nonisolated code continues inline instead of being
//   enqueued again (which would be two hops per APNs send).
// - `LoopIsolation` is the loop's serial executor: an actor whose `unownedExecutor` is
//   `loop.asUnownedSerialExecutor()` is isolated to the loop thread. Its jobs run with
//   `runSynchronously(isolatedTo:taskExecutor:)`.
// (One object in both roles, as before, made every return from an actor-free `await` a hop: the
// current executor was the loop's serial one, the code wanted the generic one.)
// A job enqueued from the loop thread (a continuation resumed by an I/O handler, say) goes to the
// local queue: no lock, no eventfd write.
//
// After shutdown there is no loop thread, yet a task preferring the loop may still have to continue
// (one that awaited `loop.shutdown()` itself, say). Dropping its job would hang the task; running it on
// the concurrent pool could run two jobs of an actor on this executor at once. So late jobs run one
// at a time on a shared serial queue: tasks finish and actors stay serial, just not on the loop thread.
import Dispatch

extension EventLoop: TaskExecutor {
    /// Runs `job` (of a task preferring this loop) on the loop thread; after shutdown, serially on a
    /// shared fallback queue instead.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if inEventLoop {
            local.append(.job(job))
        } else if !submit(.job(job)) {
            Self.retiredJobs.async { [self] in runJob(job) }
        }
    }

    /// An actor's job, from ``LoopIsolation``: as `enqueue`, run isolated to the loop.
    func enqueueIsolated(_ job: UnownedJob) {
        if inEventLoop {
            local.append(.isolatedJob(job))
        } else if !submit(.isolatedJob(job)) {
            Self.retiredJobs.async { [self] in runIsolatedJob(job) }
        }
    }

    /// Where jobs enqueued on loops that have shut down run, one at a time.
    static let retiredJobs = DispatchQueue(label: "herald.event-loop.retired-jobs")

    /// The loop's serial executor: an actor returning it from `unownedExecutor` runs on the loop.
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: isolation)
    }

    /// The loop as a task executor, for `Task(executorPreference:)` and `withTaskExecutorPreference`.
    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    /// Stops the program unless called on the loop thread (`assumeIsolated` and friends use it).
    public func checkIsolated() {
        precondition(inEventLoop, "EventLoop '\(name)': expected to run on its loop thread")
    }

    /// True on the loop thread: code running there is isolated to this loop.
    public func isIsolatingCurrentContext() -> Bool? {
        inEventLoop
    }

    /// Runs a task's job as nonisolated code that prefers this loop.
    func runJob(_ job: UnownedJob) {
        jobsRun &+= 1
        job.runSynchronously(on: asUnownedTaskExecutor())
    }

    /// Runs an actor's job isolated to this loop.
    func runIsolatedJob(_ job: UnownedJob) {
        jobsRun &+= 1
        job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
    }
}

/// An event loop's serial executor (``EventLoop/asUnownedSerialExecutor()``): actors isolated to
/// the loop thread. A separate object from the loop, so that the runtime can tell an actor's
/// isolation from the loop's role as a task executor. Thread-safe; lives as long as its loop.
public final class LoopIsolation: SerialExecutor, @unchecked Sendable {
    // SAFETY: `loop` is written once, in the loop's init, before the loop is shared; only read after.
    // Not retained (the loop owns this object) and not weak: a weak reference gives the loop a side
    // table, which makes every retain and release of the loop take the slow path. The loop
    // outlives this object, which it owns; an actor's `UnownedSerialExecutor` holds neither, as it
    // held the loop itself before.
    unowned(unsafe) var loop: EventLoop?

    init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        guard let loop else {
            // The loop is gone: only a job that outlived it can get here; run it serially.
            EventLoop.retiredJobs.async { [self] in
                job.runSynchronously(on: asUnownedSerialExecutor())
            }
            return
        }
        loop.enqueueIsolated(job)
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    public func checkIsolated() {
        precondition(loop?.inEventLoop ?? false, "expected to run on an event loop's thread")
    }

    public func isIsolatingCurrentContext() -> Bool? {
        loop?.inEventLoop ?? false
    }
}
