import Synchronization
import Testing

@testable import HTTP2

@Suite(.timeLimit(.minutes(1)))
struct EventLoopTimerTests {
    private static let millisecond: UInt64 = 1_000_000

    @Test func timersFireInDeadlineOrderNeverEarlyAndCancelledOnesNever() async throws {
        typealias Outcome = (order: [String], early: [String], cancels: [Bool])
        let outcome = try await withLoop { loop in
            await withCheckedContinuation { (done: CheckedContinuation<Outcome, Never>) in
                loop.execute {
                    var order: [String] = []
                    var early: [String] = []
                    func add(_ label: String, _ milliseconds: UInt64) -> TimerID {
                        let deadline = EventLoop.now() + milliseconds * Self.millisecond
                        return loop.schedule(after: milliseconds * Self.millisecond) {
                            if EventLoop.now() < deadline { early.append(label) }
                            order.append(label)
                        }
                    }
                    _ = add("d", 40)
                    _ = add("a", 10)
                    let cancelled = add("x", 25)
                    _ = add("c", 30)
                    _ = add("b", 20)
                    _ = add("now", 0)
                    let cancels = [loop.cancel(cancelled), loop.cancel(cancelled)]
                    loop.schedule(after: 60 * Self.millisecond) {
                        done.resume(returning: (order, early, cancels))
                    }
                }
            }
        }
        #expect(outcome.order == ["now", "a", "b", "c", "d"])
        #expect(outcome.early.isEmpty, "fired before their deadline")
        #expect(outcome.cancels == [true, false], "the first cancel removes it, the second finds nothing")
    }

    @Test func waitingForATimerDoesNotSpin() async throws {
        let iterations = try await withLoop { loop in
            await withCheckedContinuation { (done: CheckedContinuation<Int, Never>) in
                loop.execute {
                    let start = loop.iterations
                    loop.schedule(after: 30 * Self.millisecond) { done.resume(returning: loop.iterations - start) }
                }
            }
        }
        // The iteration that scheduled it, and the one that woke for it; rounding up means no extra.
        #expect(iterations <= 2)
    }

    @Test func cancelAfterFiringReturnsFalse() async throws {
        try await withLoop { loop in
            let cancelled = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
                loop.execute {
                    let id = LoopOwned<TimerID?>(nil)
                    id.value = loop.schedule(after: 0) {
                        loop.execute { done.resume(returning: id.value.map { loop.cancel($0) } ?? true) }
                    }
                }
            }
            #expect(!cancelled)
        }
    }

    @Test func timersFromOtherThreadsFireAndCancel() async throws {
        try await withLoop { loop in
            let firedCancelled = Atomic<Bool>(false)
            let kept = loop.scheduleFromAnyThread(after: 5 * Self.millisecond) {}
            let dropped = loop.scheduleFromAnyThread(after: 1 * Self.millisecond) {
                firedCancelled.store(true, ordering: .relaxed)
            }
            loop.cancelFromAnyThread(dropped)
            #expect(kept != dropped)
            let firedOnLoop = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
                _ = loop.scheduleFromAnyThread(after: 20 * Self.millisecond) {
                    done.resume(returning: loop.inEventLoop)
                }
            }
            #expect(firedOnLoop)
            let firedAnyway = firedCancelled.load(ordering: .relaxed)
            #expect(!firedAnyway)
        }
    }

    @Test func aCrossThreadTimerCanBeCancelledOnTheLoopBeforeTheLoopSawIt() async throws {
        try await withLoop { loop in
            let blocking = LoopOwned<TimerID?>(nil)
            let firedCancelled = Atomic<Bool>(false)
            // The loop is held while another thread schedules, so the loop cancels an ID whose
            // schedule is still in its inbox.
            let scheduled = Atomic<Bool>(false)
            let result = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
                loop.execute {
                    startThread {
                        blocking.value = loop.scheduleFromAnyThread(after: 0) {
                            firedCancelled.store(true, ordering: .relaxed)
                        }
                        scheduled.store(true, ordering: .releasing)
                    }
                    while !scheduled.load(ordering: .acquiring) {}  // hold the loop until it is queued
                    let cancelled = blocking.value.map { loop.cancel($0) } ?? false
                    loop.schedule(after: 10 * Self.millisecond) { done.resume(returning: cancelled) }
                }
            }
            #expect(result)
            let firedAnyway = firedCancelled.load(ordering: .relaxed)
            #expect(!firedAnyway)
        }
    }
}
