import Testing

import APNs
@testable import HTTP2

@Suite(.timeLimit(.minutes(1)))
struct EventLoopTimerHeapTests {
    /// Pops everything due by `now`, returning the labels in firing order.
    private func drain(_ heap: inout TimerHeap, _ fired: LoopOwned<[Int]>, now: UInt64 = .max) -> [Int] {
        let limit = heap.nextSequence
        while let work = heap.popExpired(now: now, scheduledBefore: limit) { work() }
        return fired.value
    }

    @Test(arguments: [1, 7, 42, 1234])
    func firesInDeadlineOrderThenSchedulingOrder(seed: UInt64) {
        var generator = SplitMix(seed: seed)
        var heap = TimerHeap()
        let fired = LoopOwned([Int]())
        var expected: [(deadline: UInt64, label: Int)] = []
        for label in 0..<500 {
            let deadline = generator.next() % 50  // many equal deadlines
            expected.append((deadline, label))
            heap.schedule(at: deadline) { fired.value.append(label) }
        }
        let order = expected.sorted { ($0.deadline, $0.label) < ($1.deadline, $1.label) }.map(\.label)
        #expect(drain(&heap, fired) == order)
        #expect(heap.isEmpty)
    }

    @Test func cancelRemovesOnlyThatTimer() {
        var heap = TimerHeap()
        let fired = LoopOwned([Int]())
        var ids: [TimerID] = []
        for label in 0..<100 { ids.append(heap.schedule(at: UInt64(100 - label)) { fired.value.append(label) }) }
        for label in stride(from: 0, to: 100, by: 3) {
            let cancelled = heap.cancel(ids[label])
            #expect(cancelled)
        }
        let again = heap.cancel(ids[0])
        #expect(!again, "a second cancel finds nothing")
        let expected = (0..<100).reversed().filter { $0 % 3 != 0 }
        #expect(drain(&heap, fired) == Array(expected))
        let afterFiring = heap.cancel(ids[1])
        #expect(!afterFiring, "a fired timer cannot be cancelled")
    }

    @Test func staleIDDoesNotCancelTheTimerReusingItsSlot() {
        var heap = TimerHeap()
        let fired = LoopOwned([Int]())
        let old = heap.schedule(at: 5) { fired.value.append(1) }
        let first = heap.cancel(old)
        #expect(first)
        let new = heap.schedule(at: 5) { fired.value.append(2) }
        #expect(new != old)
        let stale = heap.cancel(old)
        #expect(!stale)
        #expect(drain(&heap, fired) == [2])
    }

    @Test func timersScheduledDuringARoundWaitForTheNextOne() {
        var heap = TimerHeap()
        let fired = LoopOwned([Int]())
        heap.schedule(at: 10) { fired.value.append(10) }
        heap.schedule(at: 30) { fired.value.append(30) }
        let limit = heap.nextSequence
        heap.schedule(at: 5) { fired.value.append(5) }
        // The earliest timer is newer than the round: nothing fires, and deadline order is kept.
        let blocked = heap.popExpired(now: 20, scheduledBefore: limit)
        #expect(blocked == nil)
        #expect(heap.count == 3)
        #expect(drain(&heap, fired, now: 20) == [5, 10])
        #expect(heap.earliestDeadline == 30)
    }

    @Test(
        arguments: [
            (nil, Int32(-1)), (UInt64(999), Int32(0)), (UInt64(1_000), Int32(0)), (UInt64(1_001), Int32(1)),
            (UInt64(1_000 + 1_000_000), Int32(1)), (UInt64(1_001 + 1_000_000), Int32(2)),
            (UInt64.max, Int32.max),
        ] as [(UInt64?, Int32)])
    func timeoutRoundsUpToWholeMilliseconds(deadline: UInt64?, expected: Int32) {
        var heap = TimerHeap()
        if let deadline { heap.schedule(at: deadline) {} }
        #expect(heap.timeoutMilliseconds(now: 1_000) == expected)
    }

    @Test func removeAllDropsEverything() {
        var heap = TimerHeap()
        let fired = LoopOwned([Int]())
        for label in 0..<10 { heap.schedule(at: UInt64(label)) { fired.value.append(label) } }
        heap.removeAll()
        #expect(heap.isEmpty)
        #expect(heap.earliestDeadline == nil)
        #expect(drain(&heap, fired).isEmpty)
    }
}

/// A small deterministic generator, so failures reproduce.
typealias SplitMix = SplitMix64
