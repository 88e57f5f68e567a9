// The loop as a Swift concurrency executor (SE-0392 custom actor executors, SE-0417 task executor
// preference). `Task(executorPreference: loop)` runs the task's nonisolated code on the loop thread,
// and an actor whose `unownedExecutor` is the loop's serial executor is isolated to the loop thread.
// One `enqueue` serves both roles, so every job runs with `runSynchronously(isolatedTo:taskExecutor:)`,
// the combination SE-0417 describes for a type that is both. A job enqueued from the loop thread (a
// continuation resumed by an I/O handler, say) goes to the local queue: no lock, no eventfd write.
//
// After shutdown there is no loop thread, yet a task preferring the loop may still have to continue
// (one that awaited `loop.shutdown()` itself, say). Dropping its job would hang the task; running it on
// the concurrent pool could run two jobs of an actor on this executor at once. So late jobs run one
// at a time on a shared serial queue: tasks finish and actors stay serial, just not on the loop thread.
import Dispatch

extension EventLoop: SerialExecutor, TaskExecutor {
    /// Runs `job` on the loop thread; after shutdown, serially on a shared fallback queue instead.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if inEventLoop {
            local.append(.job(job))
        } else if !submit(.job(job)) {
            Self.retiredJobs.async { [self] in runJob(job) }
        }
    }

    /// Where jobs enqueued on loops that have shut down run, one at a time.
    private static let retiredJobs = DispatchQueue(label: "herald.event-loop.retired-jobs")

    /// The loop as a serial executor: an actor returning it from `unownedExecutor` runs on the loop.
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// The loop as a task executor, for `Task(executorPreference:)` and `withTaskExecutorPreference`.
    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    /// Stops the program unless called on the loop thread (`assumeIsolated` and friends use it).
    public func checkIsolated() {
        precondition(inEventLoop, "EventLoop '\(name)': expected to run on its loop thread")
    }

    /// True on the loop thread: code running there is isolated to this executor.
    public func isIsolatingCurrentContext() -> Bool? {
        inEventLoop
    }

    func runJob(_ job: UnownedJob) {
        job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
    }
}
