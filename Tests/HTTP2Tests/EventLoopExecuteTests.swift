import Dispatch
import Synchronization
import Testing

@testable import HTTP2

@Suite(.timeLimit(.minutes(1)))
struct EventLoopExecuteTests {
    @Test func executeFromManyThreadsRunsEachItemOnceInOrderPerSubmitter() async throws {
        let threads = 8
        let perThread = 2_000
        let log = LoopOwned([[Int]](repeating: [], count: threads + 1))
        try await withLoop { loop in
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                let finished = LoopOwned(0)
                @Sendable func submitterFinished() {
                    finished.value += 1
                    if finished.value == threads + 1 { done.resume() }
                }
                for thread in 0..<threads {
                    startThread {
                        for item in 0..<perThread { loop.execute { log.value[thread].append(item) } }
                        loop.execute { submitterFinished() }
                    }
                }
                // The loop itself is one more submitter, taking the on-loop path.
                loop.execute {
                    for item in 0..<perThread { loop.execute { log.value[threads].append(item) } }
                    loop.execute { submitterFinished() }
                }
            }
        }
        for submitter in 0...threads {
            #expect(log.value[submitter] == Array(0..<perThread), "submitter \(submitter)")
        }
    }

    @Test func executeOnTheLoopDoesNotWriteTheEventfd() async throws {
        try await withLoop { loop in
            let writes = try await onLoop(loop) { () -> Int in loop.wakeUps.load(ordering: .relaxed) }
            let after = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
                loop.execute {
                    // 100 submissions from the loop thread, then one that reports the count.
                    for _ in 0..<100 { loop.execute {} }
                    loop.execute { continuation.resume(returning: loop.wakeUps.load(ordering: .relaxed)) }
                }
            }
            // One write for the off-loop execute above that started this; none for the 101 on-loop ones.
            #expect(after == writes + 1)
        }
    }

    @Test func offLoopSubmissionsWakeOnlyWhenTheInboxWasEmpty() async throws {
        try await withLoop { loop in
            let blocking = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let before = loop.wakeUps.load(ordering: .relaxed)
            loop.execute {
                blocking.signal()
                release.wait()  // hold the loop while the test fills its inbox
            }
            blocking.wait()
            let counter = LoopOwned(0)
            let total = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
                for _ in 0..<100 { loop.execute { counter.value += 1 } }
                loop.execute { continuation.resume(returning: counter.value) }
                release.signal()
            }
            #expect(total == 100)
            // One wake-up for the blocking item, one for the first of the 101 queued behind it.
            #expect(loop.wakeUps.load(ordering: .relaxed) - before == 2)
        }
    }

    @Test func onLoopWorkRunsWithoutWaitingForEvents() async throws {
        try await withLoop { loop in
            // Nothing else will happen on this loop: if queued work waited for epoll, this would hang.
            let depth = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
                @Sendable func step(_ remaining: Int) {
                    if remaining == 0 { return continuation.resume(returning: 1_000) }
                    loop.execute { step(remaining - 1) }
                }
                loop.execute { step(1_000) }
            }
            #expect(depth == 1_000)
        }
    }

    @Test func nowIsMonotonic() {
        let first = EventLoop.now()
        let second = EventLoop.now()
        #expect(second >= first)
        #expect(first > 0)
    }
}
