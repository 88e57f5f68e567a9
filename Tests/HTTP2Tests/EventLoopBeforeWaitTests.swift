import Synchronization
import Testing

@testable import HTTP2

/// Work queued on the loop thread runs in rounds before the next wait for I/O, and before-wait work
/// (a connection's flush) runs once that work is done, so one wake-up ends in one write.
@Suite(.timeLimit(.minutes(1)))
struct EventLoopBeforeWaitTests {
    @Test func beforeWaitWorkRunsAfterTheWorkQueuedInTheSameIteration() async throws {
        try await withLoop { loop in
            let order = await withCheckedContinuation { (done: CheckedContinuation<[String], Never>) in
                loop.execute {
                    let log = LoopOwned([String]())
                    let start = loop.iterations
                    loop.executeBeforeWait {
                        log.value.append("flush in iteration +\(loop.iterations - start)")
                        loop.executeSoon { done.resume(returning: log.value) }
                    }
                    loop.executeSoon {
                        log.value.append("a")
                        loop.executeSoon {
                            log.value.append("b")
                            loop.executeSoon { log.value.append("c") }
                        }
                    }
                }
            }
            #expect(order == ["a", "b", "c", "flush in iteration +1"])
        }
    }

    @Test func endlessLocalWorkStillLetsTheLoopReachIO() async throws {
        try await withLoop { loop in
            let reached = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
                loop.execute {
                    let stop = LoopOwned(false)
                    func spin() { if !stop.value { loop.executeSoon { spin() } } }
                    spin()
                    // A timer fires only after an epoll_wait: it must not starve behind the spinning.
                    loop.schedule(after: 1_000_000) {
                        stop.value = true
                        done.resume(returning: true)
                    }
                }
            }
            #expect(reached)
        }
    }
}
