import APNs
import HTTP2
import Testing

@testable import Emulator

/// The control API's lists come a page at a time: a default and a maximum `limit`, and a
/// `next-cursor` to walk the whole list oldest first.
@Suite(.timeLimit(.minutes(1)))
struct ControlPagingTests {
    static func delivery(_ index: Int, topic: String = "com.example.app", payload: [UInt8]? = nil) -> Delivery {
        Delivery(
            receivedAt: 1_000 + index, token: String(format: "%064x", index), topic: topic, pushType: "alert",
            priority: 10, apnsID: nil, uniqueID: nil, status: 200, reason: nil,
            payload: payload ?? Array(#"{"aps":{"alert":"\#(index)"}}"#.utf8))
    }

    /// Follows `next-cursor` from `query` until it is absent; the pages' sizes and every entry's received-at.
    static func walk(_ emulator: BoundedEmulator, _ query: String) async throws -> (pages: [Int], times: [Int]) {
        var pages: [Int] = []
        var times: [Int] = []
        var cursor: String?
        repeat {
            let separator = query.isEmpty ? "" : "&"
            let path = "/control/v1/deliveries?" + query + (cursor.map { separator + "cursor=" + $0 } ?? "")
            let response = try await emulator.send("GET", path)
            #expect(response.status == 200, "\(path)")
            let json = try JSONValue(parsing: response.body)
            let entries = json["deliveries"]?.arrayValue ?? []
            pages.append(entries.count)
            times += entries.compactMap { $0["received-at"]?.intValue }
            cursor = json["next-cursor"]?.stringValue
        } while cursor != nil && pages.count < 100
        return (pages, times)
    }

    @Test func cursorsWalkTheWholeLogOnceOldestFirstInPagesOfTheDefaultLimit() async throws {
        try await withBoundedEmulator { emulator in
            for index in 0..<250 { emulator.emulator.log.append(Self.delivery(index)) }
            let walked = try await Self.walk(emulator, "")
            #expect(walked.pages == [100, 100, 50])
            #expect(walked.times == Array(1_000..<1_250))
        }
    }

    @Test func filtersKeepWorkingAcrossPages() async throws {
        try await withBoundedEmulator { emulator in
            for index in 0..<300 {
                emulator.emulator.log.append(
                    Self.delivery(index, topic: index % 3 == 0 ? "com.example.other" : "com.example.app"))
            }
            let walked = try await Self.walk(emulator, "topic=com.example.other&limit=40")
            #expect(walked.times == stride(from: 1_000, to: 1_300, by: 3).map { $0 })
            #expect(walked.pages.allSatisfy { $0 <= 40 })
            #expect(walked.pages.first == 40)
        }
    }

    @Test func anAnswerHoldsOnePageHoweverLargeTheLog() async throws {
        let payload =
            Array(#"{"aps":{"alert":""#.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 200) + Array(#""}}"#.utf8)
        try await withBoundedEmulator { emulator in
            for index in 0..<5_000 { emulator.emulator.log.append(Self.delivery(index, payload: payload)) }
            let response = try await emulator.send("GET", "/control/v1/deliveries")
            let json = try JSONValue(parsing: response.body)
            #expect(json["deliveries"]?.arrayValue?.count == 100)
            #expect(response.body.count < 100 * 550, "one page, not the whole log")
            #expect(json["total"] == 5_000)
        }
    }

    @Test func aPageExaminesAtMostTheScanLimit() {
        let log = DeliveryLog(capacity: 1_000)
        for index in 0..<200 {
            log.append(Self.delivery(index, topic: index == 199 ? "com.rare.app" : "com.example.app"))
        }
        let rare = DeliveryFilter(topic: "com.rare.app")
        var page = log.page(matching: rare, from: nil, limit: 10, scanLimit: 50)
        #expect(page.entries.isEmpty)
        #expect(page.next == 51, "the next page starts after the 50 examined")
        var found: [Delivery] = []
        var pages = 1
        while let next = page.next {
            page = log.page(matching: rare, from: next, limit: 10, scanLimit: 50)
            found += page.entries
            pages += 1
        }
        #expect(found.map(\.receivedAt) == [1_199])
        #expect(pages == 4)
    }

    @Test func aCursorPastEntriesNoLongerKeptStartsAtTheOldestKept() {
        let log = DeliveryLog(capacity: 50)
        for index in 0..<120 { log.append(Self.delivery(index)) }
        let page = log.page(matching: DeliveryFilter(), from: 1, limit: 5)
        #expect(page.entries.map(\.receivedAt) == Array(1_070..<1_075))
        #expect(page.next == 76)
        let last = log.page(matching: DeliveryFilter(), from: 118, limit: 5)
        #expect(last.entries.map(\.receivedAt) == [1_117, 1_118, 1_119])
        #expect(last.next == nil)
    }

    @Test func devicesComeAPageAtATimeInTokenOrder() async throws {
        try await withBoundedEmulator { emulator in
            var tokens: [String] = []
            for _ in 0..<5 {
                tokens.append(
                    try emulator.emulator.devices.register(bundleID: "com.example.app", environment: .sandbox))
            }
            var seen: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let path = "/control/v1/devices?limit=2" + (cursor.map { "&cursor=" + $0 } ?? "")
                let json = try JSONValue(parsing: try await emulator.send("GET", path).body)
                seen += json["devices"]?.arrayValue?.compactMap { $0["token"]?.stringValue } ?? []
                cursor = json["next-cursor"]?.stringValue
                pages += 1
            } while cursor != nil && pages < 10
            #expect(seen == tokens.sorted())
            #expect(pages == 3)
        }
    }
}
