import APNs
import Synchronization
import Testing

@testable import HeraldCLI

/// Messages written to standard error, from any thread.
final class BulkRequestsErrors: Sendable {
    let messages = Mutex<[String]>([])
}

/// Bulk request lines decoded on their own thread and handed over in batches: every line comes
/// out once, in order, bad lines are counted and named, and stopping early does not hang.
@Suite(.timeLimit(.minutes(1)))
struct BulkRequestsTests {
    static let decoder = BulkRequestDecoder(
        topic: "com.example.app", pushType: nil, priority: nil, expiration: nil, collapseID: nil)

    /// Line `index` names its own token, so the order can be checked.
    static func line(_ index: Int) -> String {
        let digits = String(index, radix: 16)
        let token = String(repeating: "0", count: 64 - digits.count) + digits
        return #"{"token":"\#(token)","payload":{"aps":{"alert":"n\#(index)"}}}"#
    }

    static func requests(
        _ text: String, assignIDs: Bool = true, standardError: @escaping @Sendable (String) -> Void = { _ in }
    ) -> BulkRequests {
        var context = CommandContext.system
        context.standardError = standardError
        return BulkRequests(
            reader: MemoryLineReader(text), path: "requests.ndjson", context: context, decoder: decoder,
            assignIDs: assignIDs)
    }

    /// Counts around the batch size and the hand-over's bound (256 x 8), every 97th line bad.
    @Test(arguments: [0, 1, 255, 256, 257, 2048, 5000])
    func everyLineComesOutOnceInOrder(lines: Int) throws {
        var text = ""
        var expected: [Int] = []
        var bad = 0
        for index in 0..<lines {
            if index % 97 == 96 {
                text += "{\"token\":\"zz\"}\n"
                bad += 1
            } else {
                text += Self.line(index) + "\n"
                expected.append(index)
            }
        }
        let errors = BulkRequestsErrors()
        let requests = Self.requests(text) { message in errors.messages.withLock { $0.append(message) } }
        var seen: [Int] = []
        while let notification = requests.next() {
            seen.append(Int(notification.token.hex, radix: 16) ?? -1)
            #expect(notification.apnsID != nil, "an apns-id is given on the decoding thread")
        }
        #expect(requests.next() == nil, "the end stays the end")
        requests.stop()
        #expect(seen == expected)
        #expect(requests.invalid == bad)
        #expect(requests.readError == nil)
        let messages = errors.messages.withLock { $0 }
        #expect(messages.count == bad)
        if bad > 0 { #expect(messages[0].contains("requests.ndjson, line 97: ")) }
    }

    @Test func withoutAssignedIDsTheLinesOwnAreKept() throws {
        let id = "123e4567-e89b-12d3-a456-426655440000"
        let text = Self.line(1) + "\n" + #"{"token":"ab","payload":{"aps":{}},"apns-id":"\#(id)"}"# + "\n"
        let requests = Self.requests(text, assignIDs: false)
        #expect(requests.next()?.apnsID == nil)
        #expect(requests.next()?.apnsID?.value == id)
        #expect(requests.next() == nil)
        requests.stop()
    }

    /// The sender stops taking while decoding is ahead and waits for room: `stop` ends it.
    @Test func stoppingEarlyEndsTheDecodingThread() throws {
        let text = (0..<20_000).map(Self.line).joined(separator: "\n")
        let requests = Self.requests(text)
        for _ in 0..<10 { #expect(requests.next() != nil) }
        requests.stop()
        requests.stop()  // a second stop is harmless
        #expect(requests.bytesConsumed < text.utf8.count, "decoding stopped before the end")
    }

    /// Stopped with batches handed over and never taken, the hand-over is freed cleanly (it used
    /// to trap in libdispatch: "Semaphore object deallocated while in use").
    @Test func aHandOverLeftWithBatchesUntakenIsFreedCleanly() {
        var handover: BatchHandover? = BatchHandover(capacity: 2)
        #expect(handover?.put(.init(notifications: [], last: false)) == true)
        #expect(handover?.put(.init(notifications: [], last: false)) == true)
        handover?.decodingFinished()
        handover?.stop()
        handover = nil
        #expect(handover == nil)
    }
}
