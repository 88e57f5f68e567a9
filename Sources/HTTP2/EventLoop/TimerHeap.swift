// A min-heap of timers by (deadline, sequence), with O(log n) cancellation.
//
// Each timer owns a slot in `slots` (its closure, generation and current heap index); the heap holds
// (deadline, sequence, slot) and keeps each slot's `heapIndex` up to date as entries move, so cancel
// removes the entry in place: cancelled timers do not linger until their deadline. A `TimerID` is
// (slot, generation); freeing a slot bumps its generation, so a stale ID never cancels a newer timer.
// Equal deadlines fire in scheduling order (the sequence number breaks ties).

/// Pending timers of one event loop, earliest deadline first.
///
/// Thread-safety: not thread-safe; owned by its event loop's thread.
struct TimerHeap {
    private struct Entry {
        var deadline: UInt64
        var sequence: UInt64
        var slot: UInt32

        func fires(before other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : sequence < other.sequence
        }
    }

    private struct Slot {
        var generation: UInt32 = 1
        var heapIndex = -1  // -1: free
        var work: (() -> Void)?
    }

    private var heap: [Entry] = []
    private var slots: [Slot] = []
    private var freeSlots: [UInt32] = []
    /// The sequence number the next scheduled timer gets.
    private(set) var nextSequence: UInt64 = 0

    var count: Int { heap.count }
    var isEmpty: Bool { heap.isEmpty }
    /// The earliest deadline, or nil when no timer is pending.
    var earliestDeadline: UInt64? { heap.first?.deadline }

    /// Adds a timer firing `work` at `deadline` (monotonic nanoseconds).
    @discardableResult
    mutating func schedule(at deadline: UInt64, _ work: @escaping () -> Void) -> TimerID {
        let slot: UInt32
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            slot = UInt32(slots.count)
            slots.append(Slot())
        }
        slots[Int(slot)].work = work
        heap.append(Entry(deadline: deadline, sequence: nextSequence, slot: slot))
        nextSequence &+= 1
        slots[Int(slot)].heapIndex = heap.count - 1
        siftUp(heap.count - 1)
        return TimerID(slot: slot, generation: slots[Int(slot)].generation)
    }

    /// Removes the timer `id`; false if it already fired, was cancelled, or is not from this heap.
    @discardableResult
    mutating func cancel(_ id: TimerID) -> Bool {
        guard id.remote == nil, id.slot < slots.count, slots[id.slot].generation == id.generation else {
            return false
        }
        let index = slots[id.slot].heapIndex
        guard index >= 0 else { return false }
        _ = remove(at: index)
        return true
    }

    /// Removes and returns the earliest timer if its deadline is at or before `now` and it was
    /// scheduled before sequence `limit` (timers added while firing wait for the next round).
    mutating func popExpired(now: UInt64, scheduledBefore limit: UInt64) -> (() -> Void)? {
        guard let first = heap.first, first.deadline <= now, first.sequence < limit else { return nil }
        return remove(at: 0)
    }

    /// The `epoll_wait` timeout until the earliest deadline: -1 with no timers, else milliseconds
    /// rounded up so the loop never wakes before a deadline and spins.
    func timeoutMilliseconds(now: UInt64) -> Int32 {
        guard let deadline = earliestDeadline else { return -1 }
        guard deadline > now else { return 0 }
        let milliseconds = (deadline - now) / 1_000_000 + ((deadline - now) % 1_000_000 == 0 ? 0 : 1)
        return Int32(clamping: milliseconds)
    }

    /// Drops every pending timer without running it.
    mutating func removeAll() {
        while !heap.isEmpty { _ = remove(at: heap.count - 1) }
    }

    private mutating func remove(at index: Int) -> (() -> Void)? {
        let slot = Int(heap[index].slot)
        let last = heap.count - 1
        if index != last {
            heap.swapAt(index, last)
            slots[Int(heap[index].slot)].heapIndex = index
        }
        heap.removeLast()
        if index < heap.count {
            siftDown(index)
            siftUp(index)
        }
        let work = slots[slot].work
        slots[slot].work = nil
        slots[slot].heapIndex = -1
        slots[slot].generation &+= 1
        if slots[slot].generation == 0 { slots[slot].generation = 1 }
        freeSlots.append(UInt32(slot))
        return work
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].fires(before: heap[parent]) else { return }
            swapEntries(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            var best = parent
            let left = 2 * parent + 1
            let right = left + 1
            if left < heap.count, heap[left].fires(before: heap[best]) { best = left }
            if right < heap.count, heap[right].fires(before: heap[best]) { best = right }
            if best == parent { return }
            swapEntries(parent, best)
            parent = best
        }
    }

    private mutating func swapEntries(_ a: Int, _ b: Int) {
        heap.swapAt(a, b)
        slots[Int(heap[a].slot)].heapIndex = a
        slots[Int(heap[b].slot)].heapIndex = b
    }
}
