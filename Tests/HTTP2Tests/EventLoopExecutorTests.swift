import Synchronization
import Testing

@testable import HTTP2

/// An actor whose isolation is a loop thread.
private actor LoopBound {
    let loop: EventLoop
    var counter = 0
    init(loop: EventLoop) { self.loop = loop }
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    func increment() -> (count: Int, onLoop: Bool) {
        counter += 1
        return (counter, loop.inEventLoop)
    }
}

/// Suspends until the loop resumes it (as an I/O handler resumes a request's continuation).
private nonisolated(nonsending) func resumedOnLoop(_ loop: EventLoop) async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
        loop.executeSoon { continuation.resume() }
    }
}

/// A default actor, for a task preferring the loop to call into and come back from.
private actor Elsewhere {
    func value() -> Int { 42 }
}

@Suite(.timeLimit(.minutes(1)))
struct EventLoopExecutorTests {
    @Test func aTaskPreferringTheLoopStaysOnItAcrossAContinuationResumedByTheLoop() async throws {
        try await withLoop { loop in
            let (before, after, wakeUps) = await Task(executorPreference: loop) {
                let before = loop.inEventLoop
                let writes = loop.wakeUps.load(ordering: .relaxed)
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    loop.execute { continuation.resume() }  // from the loop thread, as an I/O handler would
                }
                let after = loop.inEventLoop
                return (before, after, loop.wakeUps.load(ordering: .relaxed) - writes)
            }.value
            #expect(before)
            #expect(after)
            #expect(wakeUps == 0, "resuming on the loop must not hop through the inbox")
        }
    }

    @Test func aContinuationResumedFromAnotherThreadAlsoContinuesOnTheLoop() async throws {
        try await withLoop { loop in
            let after = await Task(executorPreference: loop) {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    startThread { continuation.resume() }
                }
                return loop.inEventLoop
            }.value
            #expect(after)
        }
    }

    @Test func aTaskComesBackToTheLoopAfterCallingADefaultActor() async throws {
        try await withLoop { loop in
            let elsewhere = Elsewhere()
            let (value, onLoop) = await Task(executorPreference: loop) {
                let value = await elsewhere.value()
                return (value, loop.inEventLoop)
            }.value
            #expect(value == 42)
            #expect(onLoop)
        }
    }

    @Test func awaitingAContinuationResumedOnTheLoopCostsOneJobNotMore() async throws {
        try await withLoop { loop in
            let jobs = await Task(executorPreference: loop) {
                await resumedOnLoop(loop)  // warm up: the task's first job
                let before = loop.jobsRun
                for _ in 0..<10 { await resumedOnLoop(loop) }
                return loop.jobsRun - before
            }.value
            // One job per resume; a hop back to nonisolated code after each await would make it 20.
            #expect(jobs == 10)
        }
    }

    @Test func anActorOnTheLoopsSerialExecutorRunsOnTheLoopThread() async throws {
        try await withLoop { loop in
            let actor = LoopBound(loop: loop)
            var results: [(count: Int, onLoop: Bool)] = []
            for _ in 0..<10 { results.append(await actor.increment()) }
            #expect(results.map(\.count) == Array(1...10))
            #expect(results.allSatisfy { $0.onLoop })
        }
    }

    @Test func isolationChecksHoldOnTheLoopOnly() async throws {
        try await withLoop { loop in
            #expect(loop.isIsolatingCurrentContext() == false)
            let isolatedOnLoop = try await onLoop(loop) { loop.isIsolatingCurrentContext() }
            #expect(isolatedOnLoop == true)
            // checkIsolated() traps off the loop; on it, it returns.
            try await onLoop(loop) { loop.checkIsolated() }
        }
    }

    @Test func manyTasksPreferringTheLoopAllComplete() async throws {
        try await withLoop { loop in
            let total = await withTaskGroup(of: Int.self, returning: Int.self) { group in
                for index in 0..<200 {
                    group.addTask(executorPreference: loop) {
                        await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
                            loop.execute { continuation.resume(returning: loop.inEventLoop ? index : -1_000_000) }
                        }
                    }
                }
                return await group.reduce(0, +)
            }
            #expect(total == (0..<200).reduce(0, +))
        }
    }
}
