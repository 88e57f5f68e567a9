import APNs
import APNsClient
import Testing

/// The bulk sender holds back while requests wait in the pool for a stream (at most 32 of its own
/// queue there), and never stops at zero in flight, even when the queue is full of other callers'.
@Suite(.timeLimit(.minutes(1)))
struct BulkSenderQueueTests {
    static let note = Result {
        try APNs.Notification(
            token: DeviceToken(hex: String(repeating: "cd", count: 32)), topic: Topic("com.example.app"),
            payload: Payload.alert(body: "queued"))
    }

    /// 2 connections x 8 streams, a concurrency of 1,000: what the sender holds is the streams
    /// and the 32 it lets wait, not the concurrency.
    @Test func aHighConcurrencyDoesNotFillThePoolsQueue() async throws {
        let note = try Self.note.get()
        let world = try await BulkWorld.start(faults: [], streams: 8)
        let tally = BulkTally()
        var remaining = 2000
        await world.client.sendEach(concurrency: 1000) {
            guard remaining > 0 else { return nil }
            remaining -= 1
            tally.taken += 1
            tally.mostInFlight = max(tally.mostInFlight, tally.taken - tally.results)
            return note
        } onResult: { _, result in
            tally.results += 1
            if case .success = result { tally.succeeded += 1 }
        }
        #expect(tally.taken == 2000 && tally.results == 2000 && tally.succeeded == 2000)
        // Streams plus the 32 waiting, with slack (measured 55 once: not explained yet; requests
        // a connection takes before the server's SETTINGS arrive are one guess). Before the
        // hold-back, the sender held the whole concurrency (1,000).
        #expect(tally.mostInFlight <= 2 * 8 + 32 + 32, "held: \(tally.mostInFlight)")
        #expect(tally.mostInFlight > 8, "more than one connection's streams were used: \(tally.mostInFlight)")
        await world.stop()
    }

    /// Other callers' requests fill the queue before the bulk send begins: it still sends.
    @Test func othersQueuedRequestsDoNotStallTheSender() async throws {
        let note = try Self.note.get()
        let world = try await BulkWorld.start(faults: [], streams: 4)
        let client = world.client
        let othersDone = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    _ = try await client.send(note)
                    return 1
                }
            }
            let tally = BulkTally()
            var remaining = 100
            await client.sendEach(concurrency: 50) {
                guard remaining > 0 else { return nil }
                remaining -= 1
                tally.taken += 1
                return note
            } onResult: { _, result in
                tally.results += 1
                if case .success = result { tally.succeeded += 1 }
            }
            #expect(tally.taken == 100 && tally.results == 100 && tally.succeeded == 100)
            return try await group.reduce(0, +)
        }
        #expect(othersDone == 200)
        await world.stop()
    }
}
