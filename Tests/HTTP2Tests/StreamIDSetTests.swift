import Testing

@testable import HTTP2

/// The server's open-addressing set of stream ids against `Set<Int32>`, on seeded random mixes of
/// inserts, removals and lookups: ids in a sliding window (as a client opens them), far-apart ids
/// (a long-lived stream among many short ones) and ids that collide in the table.
@Suite(.timeLimit(.minutes(1)))
struct StreamIDSetTests {
    @Test(arguments: 0..<6)
    func matchesSetOnRandomOperations(seed: Int) {
        var random = SplitMix(seed: UInt64(seed) &+ 0x5EED)
        var fast = StreamIDSet()
        var reference = Set<Int32>()
        var next: Int32 = 1
        for step in 0..<20_000 {
            let roll = random.next() % 100
            let id: Int32
            switch seed % 3 {
            case 0: id = Int32(truncatingIfNeeded: 1 + random.next() % 4_000) | 1  // a window of odd ids
            case 1: id = roll < 2 ? 1 : next - Int32(truncatingIfNeeded: random.next() % 64) * 2  // old and new
            default: id = Int32(truncatingIfNeeded: 1 + (random.next() % 32) * 256)  // collide in small tables
            }
            guard id > 0 else { continue }
            if roll < 45 {
                let inserted = fast.insert(id)
                #expect(inserted == reference.insert(id).inserted, "step \(step): insert \(id)")
                next += 2
            } else if roll < 85 {
                fast.remove(id)
                reference.remove(id)
            } else {
                #expect(fast.contains(id) == reference.contains(id), "step \(step): contains \(id)")
            }
            #expect(fast.count == reference.count, "step \(step)")
        }
        for id in reference { #expect(fast.contains(id)) }
    }

    @Test func startsEmptyAndRefusesNonPositiveLookups() {
        var set = StreamIDSet()
        #expect(set.isEmpty)
        #expect(!set.contains(0) && !set.contains(-1))
        let first = set.insert(7)
        let second = set.insert(7)
        #expect(first && !second)
        #expect(set.contains(7) && set.count == 1)
        set.remove(7)
        #expect(set.isEmpty && !set.contains(7))
    }
}
