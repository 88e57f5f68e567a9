import Synchronization
import Testing

@testable import Gateway

/// The engine's wake-ups: no ring is lost, a wait ends on its timeout, close ends every wait.
@Suite(.timeLimit(.minutes(1)))
struct DoorbellTests {
    @Test func aRingWithNobodyWaitingEndsTheNextWaitAtOnce() async {
        let bell = Doorbell()
        bell.ring()
        await bell.wait(timeout: .seconds(3600))
    }

    @Test func aRingWakesEveryWaiter() async {
        let bell = Doorbell()
        let woken = WokenCount()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    await bell.wait(timeout: .seconds(3600))
                    woken.value.add(1, ordering: .relaxed)
                }
            }
            // Ring until every waiter is woken (a ring before they wait is kept for one of them only).
            group.addTask {
                while woken.value.load(ordering: .relaxed) < 3 {
                    bell.ring()
                    await Task.yield()
                }
            }
            await group.waitForAll()
        }
    }

    @Test func aWaitEndsAfterItsTimeout() async {
        let clock = ContinuousClock()
        let started = clock.now
        await Doorbell().wait(timeout: .milliseconds(20))
        #expect(clock.now - started >= .milliseconds(20))
    }

    @Test func closeEndsEveryWaitNowAndLater() async {
        let bell = Doorbell()
        async let waiting: Void = bell.wait(timeout: .seconds(3600))
        bell.close()
        await waiting
        await bell.wait(timeout: .seconds(3600))
    }
}

private final class WokenCount: Sendable {
    let value = Atomic<Int>(0)
}
