import APNs
import Testing

@testable import APNsClient

/// Finished notifications on their way back to the decoding thread: each one handed over is
/// taken once, the waiting arrays stay bounded, and after `close` the sender keeps its own.
@Suite(.timeLimit(.minutes(1)))
struct NotificationGraveyardTests {
    static func notifications(_ count: Int) throws -> [Notification] {
        let token = try DeviceToken(hex: String(repeating: "ab", count: 32))
        return (0..<count).map { _ in
            Notification(
                token: token, topic: nil, apnsID: APNsID.random(), payload: EncodedPayload(bytes: Array("{}".utf8)))
        }
    }

    @Test func buriedArraysAreTakenOnceAndComeBackEmpty() throws {
        let graveyard = NotificationGraveyard()
        var retired = try Self.notifications(3)
        graveyard.bury(&retired)
        #expect(retired.isEmpty)
        var retiredAgain = try Self.notifications(2)
        graveyard.bury(&retiredAgain)
        let taken = graveyard.take()
        #expect(taken.map(\.count) == [3, 2])
        #expect(graveyard.take().isEmpty)
        // An emptied array given back is what the next burial leaves the sender to fill.
        var emptied = taken[0]
        emptied.removeAll(keepingCapacity: true)
        let capacity = emptied.capacity
        graveyard.giveBack(emptied)
        var more = try Self.notifications(1)
        graveyard.bury(&more)
        #expect(more.isEmpty && more.capacity == capacity)
    }

    @Test func atMostSoManyArraysWaitThenTheSenderFreesItsOwn() throws {
        let graveyard = NotificationGraveyard()
        for _ in 0..<(NotificationGraveyard.maximumWaiting + 3) {
            var retired = try Self.notifications(2)
            graveyard.bury(&retired)
            #expect(retired.isEmpty)
        }
        #expect(graveyard.take().count == NotificationGraveyard.maximumWaiting)
    }

    @Test func afterCloseNothingIsHandedOver() throws {
        let graveyard = NotificationGraveyard()
        graveyard.close()
        var retired = try Self.notifications(4)
        graveyard.bury(&retired)
        #expect(retired.isEmpty)
        #expect(graveyard.take().isEmpty)
    }

    @Test func theSweeperFreesOnePerLineAndGivesArraysBack() throws {
        let graveyard = NotificationGraveyard()
        var retired = try Self.notifications(3)
        graveyard.bury(&retired)
        var sweeper = NotificationGraveyard.Sweeper()
        sweeper.collect(from: graveyard)
        #expect(graveyard.take().isEmpty, "collected")
        for _ in 0..<3 { sweeper.freeOne(into: graveyard) }
        // The emptied array went back: the next burial leaves the sender that array (capacity 3+).
        var next = try Self.notifications(1)
        graveyard.bury(&next)
        #expect(next.isEmpty && next.capacity >= 3)
    }
}
