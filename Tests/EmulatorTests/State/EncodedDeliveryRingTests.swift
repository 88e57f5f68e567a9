import Synchronization
import Testing

@testable import Emulator

/// The in-memory log's entries as encoded rows: what goes in comes out, the newest `capacity` of it,
/// across row boundaries, and reads while the loops record see a consistent prefix.
@Suite(.timeLimit(.minutes(1)))
struct EncodedDeliveryRingTests {
    static func delivery(_ n: Int, payload: String = "{\"aps\":{}}", token: String? = nil) -> Delivery {
        Delivery(
            receivedAt: n, token: token ?? String(repeating: "ab", count: 32), topic: "com.example.app",
            pushType: "alert", priority: n % 2 == 0 ? 10 : nil, apnsID: "id-\(n)", uniqueID: nil, status: 200,
            reason: n % 3 == 0 ? "BadDeviceToken" : nil, payload: Array(payload.utf8))
    }

    @Test(arguments: DeliveryRecordTests.deliveries)
    func everyKindOfEntryRoundTrips(_ delivery: Delivery) {
        var ring = EncodedDeliveryRing(capacity: 3)
        ring.append(DeliveryRecord(Self.delivery(1)))
        ring.append(DeliveryRecord(delivery))
        ring.append(DeliveryRecord(delivery))
        #expect(ring.records().map(\.delivery) == [Self.delivery(1), delivery, delivery])
    }

    /// Capacities below, at and across the row's entry limit, appended past them.
    @Test(arguments: [(1, 5), (3, 3), (3, 10), (8192, 8193), (8193, 20_000), (10_000, 9_999), (100, 50_000)])
    func theNewestCapacityEntriesAreKeptInOrder(capacity: Int, appended: Int) {
        var ring = EncodedDeliveryRing(capacity: capacity)
        for n in 0..<appended { ring.append(DeliveryRecord(Self.delivery(n, token: "\(n % 7)"))) }
        let kept = min(capacity, appended)
        #expect(ring.count == kept)
        let records = ring.records()
        #expect(records.map(\.receivedAt) == Array(appended - kept..<appended))
        #expect(records.last?.delivery == Self.delivery(appended - 1, token: "\((appended - 1) % 7)"))
        #expect(ring.rows.allSatisfy { !$0.isEmpty })
        #expect(ring.rows.count <= kept / DeliveryRowLimits.entries + 2, "bounded by the capacity plus one row")
    }

    /// Many small rows (a writer that takes every few entries seals each row): the oldest go one by
    /// one, the numbering the writer's queue uses stays right, and what is kept is the newest.
    @Test func manySmallSealedRowsDropInOrder() {
        var ring = EncodedDeliveryRing(capacity: 100)
        for n in 0..<1000 {
            ring.append(DeliveryRecord(Self.delivery(n)))
            if n % 3 == 2 { ring.seal() }
        }
        #expect(ring.count == 100)
        #expect(ring.records().map(\.receivedAt) == Array(900..<1000))
        #expect(ring.rows.count == 34)
        #expect(ring.nextRow - ring.firstRow == ring.rows.count)
        #expect(ring.row(ring.firstRow)?.records().map(\.receivedAt) == [900, 901, 902])
        #expect(ring.row(ring.firstRow - 1) == nil && ring.row(ring.nextRow) == nil)
    }

    /// Payloads that fill a row's bytes long before its entry limit.
    @Test func largePayloadsStartNewRowsAndOldRowsGo() {
        var ring = EncodedDeliveryRing(capacity: 5)
        let large = String(repeating: "x", count: DeliveryRowLimits.bytes / 3)
        for n in 0..<12 { ring.append(DeliveryRecord(Self.delivery(n, payload: large + "\(n)"))) }
        #expect(ring.records().map(\.delivery) == (7..<12).map { Self.delivery($0, payload: large + "\($0)") })
        #expect(ring.rows.count <= 3)
    }

    /// The quick path encodes an accepted push from the request's bytes, without a record: the same
    /// bytes as the record it would have made, for every combination of the optional fields.
    @Test(arguments: [(true, true), (true, false), (false, true), (false, false)])
    func anAcceptedPushFromBytesEncodesAsItsRecord(withTopic: Bool, withUniqueID: Bool) {
        let token = Array("ABcd09EF0123456789abcdefABCDEF0123".utf8)
        let topic = Array("com.example.app".utf8)
        let id = Array("123e4567-e89b-12d3-a456-426655440000".utf8)
        let unique = Array("00000000-0000-4000-8000-000000000000".utf8)
        let payload = Array(#"{"aps":{"alert":"hi"}}"#.utf8)
        var fromBytes = EncodedDeliveryRow()
        var fromRecords = EncodedDeliveryRow()
        token.withUnsafeBufferPointer { token in
            topic.withUnsafeBufferPointer { topic in
                id.withUnsafeBufferPointer { id in
                    unique.withUnsafeBufferPointer { unique in
                        for receivedAt in [42, 43] {  // the second repeats the first's fields and payload
                            let record = DeliveryRecord(
                                acceptedAt: receivedAt, token: token, topic: withTopic ? topic : nil, pushType: "voip",
                                priority: 5, apnsID: id, uniqueID: withUniqueID ? unique : nil, payload: payload)
                            let appended = fromRecords.append(record)
                            #expect(appended)
                            payload.withUnsafeBytes { payload in
                                DeliveryRecord.withAcceptedFields(
                                    acceptedAt: receivedAt, token: token, topic: withTopic ? topic : nil,
                                    pushType: "voip", priority: 5, apnsID: id, uniqueID: withUniqueID ? unique : nil,
                                    payload: payload
                                ) { fields in
                                    let appended = fromBytes.append(fields)
                                    #expect(appended)
                                }
                            }
                        }
                    }
                }
            }
        }
        #expect(Array(fromBytes.bytes) == Array(fromRecords.bytes))
        let first = fromBytes.records().first?.delivery
        #expect(first?.token == "abcd09ef0123456789abcdefabcdef0123")
        #expect(first?.topic == (withTopic ? "com.example.app" : nil))
        #expect(first?.uniqueID == (withUniqueID ? "00000000-0000-4000-8000-000000000000" : nil))
        #expect(fromBytes.records().map(\.receivedAt) == [42, 43])
    }

    @Test func clearingForgetsEverythingAndRecordingGoesOn() {
        var ring = EncodedDeliveryRing(capacity: 4)
        for n in 0..<6 { ring.append(DeliveryRecord(Self.delivery(n))) }
        ring.removeAll()
        #expect(ring.count == 0 && ring.records().isEmpty)
        for n in 6..<8 { ring.append(DeliveryRecord(Self.delivery(n))) }
        #expect(ring.records().map(\.delivery) == [Self.delivery(6), Self.delivery(7)])
    }

    /// A reader decodes a copy while another thread goes on appending (and overwriting, and
    /// clearing): every read is a run of consecutive entries, each intact.
    @Test func readsWhileRecordingSeeIntactConsecutiveEntries() async {
        let log = DeliveryLog(capacity: 1000)
        let done = Atomic<Bool>(false)
        let reader = Task.detached {
            var reads = 0
            while !done.load(ordering: .acquiring) || reads == 0 {
                let entries = log.entries()
                reads += 1
                for (previous, next) in zip(entries, entries.dropFirst()) where next.receivedAt != previous.receivedAt + 1 {
                    return false
                }
                if !entries.allSatisfy({ $0 == Self.delivery($0.receivedAt) }) { return false }
            }
            return true
        }
        for n in 0..<30_000 {
            log.append(Self.delivery(n))
            if n == 15_000 { log.removeAll() }
        }
        done.store(true, ordering: .releasing)
        #expect(await reader.value)
        #expect(log.entries().map(\.receivedAt) == Array(29_000..<30_000))
    }
}
