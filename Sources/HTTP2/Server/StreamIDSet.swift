// A set of open stream ids for the server connection's bookkeeping (`answered`): open addressing
// with linear probing over a power-of-two table, the slot chosen by `id >> 1` (clients use odd,
// increasing ids, so the streams open at once fall into consecutive slots). Touched two or three
// times per request, where `Set<Int32>`'s SipHash cost more than the rest of the bookkeeping.

/// Positive stream ids, as a set. Not thread-safe: owned by one connection, on its loop.
///
/// Removal leaves a mark; marks count towards the load (at most three quarters of the slots) and are
/// dropped when the table is rebuilt, which also shrinks it to fit: O(1) amortized per operation.
struct StreamIDSet {
    private static let empty: Int32 = 0
    private static let removed: Int32 = -1

    private var slots = [Int32](repeating: StreamIDSet.empty, count: 16)
    /// Ids in the set.
    private(set) var count = 0
    /// Slots not empty: ids and removal marks.
    private var occupied = 0

    var isEmpty: Bool { count == 0 }

    func contains(_ id: Int32) -> Bool {
        guard id > 0 else { return false }
        return slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var index = Int(id >> 1) & mask
            while true {
                let value = slots[index]
                if value == id { return true }
                if value == Self.empty { return false }
                index = (index + 1) & mask
            }
        }
    }

    /// Adds `id` (a positive stream id); false if it was there already.
    @discardableResult
    mutating func insert(_ id: Int32) -> Bool {
        precondition(id > 0, "stream ids are positive")
        if contains(id) { return false }
        if (occupied + 1) * 4 > slots.count * 3 { rebuild(capacity: max(16, (count + 1) * 4)) }
        let mask = slots.count - 1
        var index = Int(id >> 1) & mask
        while slots[index] > 0 { index = (index + 1) & mask }
        if slots[index] == Self.empty { occupied += 1 }
        slots[index] = id
        count += 1
        return true
    }

    /// Removes `id` if it is in the set.
    mutating func remove(_ id: Int32) {
        guard id > 0, count > 0 else { return }
        let mask = slots.count - 1
        var index = Int(id >> 1) & mask
        while true {
            let value = slots[index]
            if value == Self.empty { return }
            if value == id {
                slots[index] = Self.removed
                count -= 1
                return
            }
            index = (index + 1) & mask
        }
    }

    /// Rehashes into a table of at least `capacity` slots (a power of two), dropping removal marks.
    private mutating func rebuild(capacity: Int) {
        var size = 16
        while size < capacity { size *= 2 }
        let old = slots
        slots = [Int32](repeating: Self.empty, count: size)
        occupied = 0
        count = 0
        for id in old where id > 0 {
            let mask = size - 1
            var index = Int(id >> 1) & mask
            while slots[index] != Self.empty { index = (index + 1) & mask }
            slots[index] = id
            occupied += 1
            count += 1
        }
    }
}
