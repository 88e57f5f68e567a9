import APNs
import Testing

@testable import Emulator

/// The fault list: capped, and indexed by what each fault selects, with the documented order
/// (the oldest matching fault whose turn it is) kept across the index's lists.
@Suite(.timeLimit(.minutes(1)))
struct FaultIndexTests {
    static func respond(_ status: Int, token: String? = nil, topic: String? = nil, count: Int = 1) -> Fault {
        Fault(
            action: .respond(status: status, reason: .internalServerError), selection: .next(count), token: token,
            topic: topic)
    }

    static func status(_ fault: Fault?) -> Int? {
        guard case .respond(let status, _) = fault?.action else { return nil }
        return status
    }

    @Test func theOldestMatchingFaultGoesFirstWhateverItSelects() {
        let faults = FaultInjector()
        faults.add(Self.respond(501, topic: "com.example.app"))
        faults.add(Self.respond(502, token: "aa"))
        faults.add(Self.respond(503))
        faults.add(Self.respond(504, token: "aa", topic: "com.example.app"))
        faults.add(Self.respond(505, token: "bb"))
        let order = (0..<5).map { _ in Self.status(faults.fault(token: "aa", topic: "com.example.app")) }
        #expect(order == [501, 502, 503, 504, nil], "505 is for another token")
        #expect(Self.status(faults.fault(token: "bb", topic: nil)) == 505)
        #expect(faults.isEmpty)
    }

    @Test func aFractionFaultWhoseTurnItIsNotLeavesTheNextOneItsChance() {
        let faults = FaultInjector()
        faults.add(Fault(action: .respond(status: 500, reason: .internalServerError), selection: .fraction(1e-9)))
        faults.add(Self.respond(503, token: "aa", count: 2))
        #expect(Self.status(faults.fault(token: "aa", topic: nil)) == 503)
        #expect(faults.list().map(\.applied) == [0, 1])
    }

    @Test func faultsForOtherTokensAndTopicsNeverMatch() {
        let faults = FaultInjector()
        for index in 0..<1_000 {
            faults.add(Self.respond(500, token: String(format: "%064x", index), topic: "com.other"))
        }
        #expect(faults.fault(token: String(repeating: "f", count: 64), topic: "com.example.app") == nil)
        #expect(faults.fault(token: String(format: "%064x", 7), topic: "com.example.app") == nil, "the topic differs")
        #expect(Self.status(faults.fault(token: String(format: "%064x", 7), topic: "com.other")) == 500)
        #expect(faults.count == 999)
    }

    @Test func theListIsCappedAndRemovalsMakeRoom() {
        let faults = FaultInjector(limit: 2)
        let first = faults.add(Self.respond(500))
        #expect(first != nil)
        #expect(faults.add(Self.respond(501, token: "aa")) != nil)
        #expect(faults.add(Self.respond(502)) == nil, "a third is refused")
        #expect(faults.remove(id: first ?? 0))
        #expect(faults.add(Self.respond(503)) != nil)
        #expect(faults.list().map { Self.status($0.fault) } == [501, 503], "listed oldest first")
    }
}
