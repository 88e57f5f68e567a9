import APNs
import Synchronization
import Testing

@testable import APNsClient

/// Reports a stream delivered, in order.
final class ReportLog: Sendable {
    let reports = Mutex<[LineReport]>([])
    var lines: [Int] { reports.withLock { $0.map(\.line) } }
    var refusals: [(line: Int, message: String)] {
        reports.withLock {
            $0.compactMap { report in
                if case .refused(let message, _) = report.kind { (report.line, message) } else { nil }
            }
        }
    }
}

/// NDJSON request lines decoded on their own thread and handed over in batches: every line comes
/// out once, in order, bad lines are reported in order with their numbers, an interrupted stream
/// says where to resume, and stopping early does not hang.
@Suite(.timeLimit(.minutes(1)))
struct DecodedRequestStreamTests {
    static let decoder = NDJSONRequestDecoder(topic: "com.example.app")

    /// Line `index` names its own token, so the order can be checked.
    static func line(_ index: Int) -> String {
        let digits = String(index, radix: 16)
        let token = String(repeating: "0", count: 64 - digits.count) + digits
        return #"{"token":"\#(token)","payload":{"aps":{"alert":"n\#(index)"}}}"#
    }

    static func index(_ notification: Notification) -> Int { Int(notification.token.hex, radix: 16) ?? -1 }

    static func stream(
        _ text: String, decoder: NDJSONRequestDecoder = decoder, assignIDs: Bool = true, skipLines: Int = 0,
        maximumLineBytes: Int = 1 << 20, log: ReportLog = ReportLog()
    ) -> DecodedRequestStream {
        var decoder = decoder
        decoder.assignIDs = assignIDs
        return DecodedRequestStream(
            reader: MemoryLineReader(text, maximumLineBytes: maximumLineBytes), decoder: decoder,
            skipLines: skipLines
        ) { report in log.reports.withLock { $0.append(report) } }
    }

    /// Counts around the batch size and the hand-over's bound (256 x 8), every 97th line bad.
    @Test(arguments: [0, 1, 255, 256, 257, 2048, 5000])
    func everyLineComesOutOnceInOrder(lines: Int) throws {
        var text = ""
        var expected: [Int] = []
        var bad: [Int] = []
        for index in 0..<lines {
            if index % 97 == 96 {
                text += "{\"token\":\"zz\"}\n"
                bad.append(index + 1)
            } else {
                text += Self.line(index) + "\n"
                expected.append(index)
            }
        }
        let log = ReportLog()
        let requests = Self.stream(text, log: log)
        var seen: [Int] = []
        while let notification = requests.next() {
            seen.append(Self.index(notification))
            #expect(notification.apnsID != nil, "an apns-id is given on the decoding thread")
        }
        #expect(requests.next() == nil, "the end stays the end")
        requests.stop()
        #expect(seen == expected)
        #expect(requests.refused == bad.count)
        #expect(requests.readError == nil)
        #expect(log.lines == bad, "reported in line order, each with its number")
        #expect(requests.linesAccountedFor == lines)
    }

    @Test func withoutAssignedIDsTheLinesOwnAreKept() throws {
        let id = "123e4567-e89b-12d3-a456-426655440000"
        let text = Self.line(1) + "\n" + #"{"token":"ab","payload":{"aps":{}},"apns-id":"\#(id)"}"# + "\n"
        let requests = Self.stream(text, assignIDs: false)
        #expect(requests.next()?.apnsID == nil)
        #expect(requests.next()?.apnsID?.value == id)
        #expect(requests.next() == nil)
        requests.stop()
    }

    /// A line over the reader's limit is refused with its number; the lines after it come out.
    @Test func aLineOverTheLimitIsRefusedAndTheRestComeOut() throws {
        let long = #"{"token":"ab","payload":{"aps":{"alert":""# + String(repeating: "x", count: 5000) + #""}}}"#
        let text = [Self.line(1), long, Self.line(3), Self.line(4)].joined(separator: "\n")
        let log = ReportLog()
        let requests = Self.stream(text, maximumLineBytes: 1000, log: log)
        var seen: [Int] = []
        while let notification = requests.next() { seen.append(Self.index(notification)) }
        requests.stop()
        #expect(seen == [1, 3, 4])
        #expect(log.refusals.map(\.line) == [2])
        #expect(log.refusals.first?.message.contains("longer than 1000 bytes") == true)
    }

    /// Interrupted, the stream hands out nothing more, and every line up to `linesAccountedFor`
    /// was handed out or reported, none after it.
    @Test func anInterruptedStreamSaysWhereToResume() throws {
        var lines = (1...3000).map(Self.line)
        lines[9] = "not json"  // line 10
        lines[1499] = "not json"  // line 1500: decoded ahead, not reached
        let log = ReportLog()
        let requests = Self.stream(lines.joined(separator: "\n"), log: log)
        var seen: [Int] = []
        for _ in 0..<20 {
            if let notification = requests.next() { seen.append(Self.index(notification)) }
        }
        requests.interruption.interrupt()
        #expect(requests.next() == nil)
        requests.stop()
        #expect(seen == Array(1...9) + Array(11...21))
        #expect(requests.linesAccountedFor == 21)
        #expect(log.lines == [10], "a report past the stopping point is not delivered")
        #expect(requests.refused == 1)
    }

    /// `skipLines` skips exactly that many lines; numbers stay the input's.
    @Test(arguments: [0, 1, 21, 256, 600])
    func skipLinesSkipsExactlyThoseLines(skip: Int) throws {
        var lines = (1...600).map(Self.line)
        lines[299] = "not json"  // line 300
        let log = ReportLog()
        let requests = Self.stream(lines.joined(separator: "\n") + "\n", skipLines: skip, log: log)
        var seen: [Int] = []
        while let notification = requests.next() { seen.append(Self.index(notification)) }
        requests.stop()
        #expect(seen == Array(1...600).filter { $0 > skip && $0 != 300 })
        #expect(log.lines == (skip < 300 ? [300] : []))
        #expect(requests.linesAccountedFor == 600)
    }

    /// The sender stops taking while decoding is ahead and waits for room: `stop` ends it.
    @Test func stoppingEarlyEndsTheDecodingThread() throws {
        let text = (0..<20_000).map(Self.line).joined(separator: "\n")
        let requests = Self.stream(text)
        for _ in 0..<10 { #expect(requests.next() != nil) }
        requests.stop()
        requests.stop()  // a second stop is harmless
        #expect(requests.bytesConsumed < text.utf8.count, "decoding stopped before the end")
    }

    /// Stopped with batches handed over and never taken, the hand-over is freed cleanly (it used
    /// to trap in libdispatch: "Semaphore object deallocated while in use").
    @Test func aHandOverLeftWithBatchesUntakenIsFreedCleanly() {
        var handover: BatchHandover? = BatchHandover(capacity: 2)
        #expect(handover?.put(.init()) == true)
        #expect(handover?.put(.init()) == true)
        handover?.decodingFinished()
        handover?.stop()
        handover = nil
        #expect(handover == nil)
    }
}
