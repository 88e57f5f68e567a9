import Testing

@testable import Emulator

/// The rows the event loops encode for the log's writer: the store's row limits, a payload repeated
/// by reference only within a row, and overwritten entries skipped without losing what the next
/// entry repeats.
@Suite(.timeLimit(.minutes(1)))
struct EncodedDeliveryRowTests {
    /// A delivery whose payload is `payload` (the same bytes for many: a fan-out).
    static func delivery(_ n: Int, payload: String = "{\"aps\":{}}") -> Delivery {
        Delivery(
            receivedAt: n, token: String(repeating: "ab", count: 32), topic: "com.example.app", pushType: "alert",
            priority: 10, apnsID: "id-\(n)", uniqueID: nil, status: 200, reason: nil, payload: Array(payload.utf8))
    }

    @Test func aRowDecodesToWhatWasAppendedAndRepeatsAnEqualPayloadByReference() throws {
        var row = EncodedDeliveryRow()
        let deliveries = (1...5).map { Self.delivery($0) } + [Self.delivery(6, payload: "{}"), Self.delivery(7)]
        let appended = deliveries.map { row.append(DeliveryRecord($0)) }
        #expect(appended.allSatisfy { $0 })
        #expect(row.count == 7)
        #expect(row.records().map(\.delivery) == deliveries)
        #expect(try DeliveryRecord.decodeCompactAll(row.bytes).map(\.delivery) == deliveries, "format 5, alone")
        // Record 1: 3 bytes, 8 one- or two-byte varints (status 200 takes two), token, topic, push type,
        // id, payload: 12 + 64 + 15 + 5 + 4 + 10. Records 2-5 repeat all but the id and their
        // payload: 3 + 6 + 4 each; record 6 has its own payload (2 bytes), record 7 too (10).
        #expect(row.bytes.count == 110 + 4 * 13 + (13 + 2) + (13 + 10))
    }

    @Test func aRowHoldsAtMostTheEntryLimit() {
        var row = EncodedDeliveryRow()
        let small = Delivery(
            receivedAt: 0, token: nil, topic: nil, pushType: nil, priority: nil, apnsID: nil, uniqueID: nil,
            status: 200,
            reason: nil, payload: [])  // 62 bytes: 8,192 of them fit the byte limit
        let appended = (0..<DeliveryRowLimits.entries).map { _ in row.append(DeliveryRecord(small)) }
        #expect(appended.allSatisfy { $0 })
        let over = row.append(DeliveryRecord(Self.delivery(-1)))
        #expect(!over, "full: the record goes to the next row")
        #expect(row.count == DeliveryRowLimits.entries)
    }

    @Test func aRowHoldsAtMostTheByteLimitUnlessItsOneRecordIsLarger() {
        let large = String(repeating: "x", count: DeliveryRowLimits.bytes / 2)
        var row = EncodedDeliveryRow()
        let first = row.append(DeliveryRecord(Self.delivery(1, payload: large + "1")))
        let second = row.append(DeliveryRecord(Self.delivery(2, payload: large + "2")))
        #expect(first && !second, "the second would pass the byte limit")
        var alone = EncodedDeliveryRow()
        let huge = Self.delivery(3, payload: large + large + large)
        let taken = alone.append(DeliveryRecord(huge))
        #expect(taken, "an empty row takes any record (and grows for it)")
        #expect(alone.records().map(\.delivery) == [huge])
    }

    @Test func skippedRecordsAreLeftOutAndTheFirstKeptCarriesItsPayload() throws {
        var row = EncodedDeliveryRow()
        let deliveries = (1...4).map { Self.delivery($0) }
        for delivery in deliveries { _ = row.append(DeliveryRecord(delivery)) }
        row.skipOldest()  // record 1 held the payload records 2-4 repeat
        row.skipOldest()
        #expect(row.count == 2)
        #expect(row.records().map(\.delivery) == Array(deliveries[2...]))
        let blob = row.withBlob { Array($0) }
        #expect(try DeliveryRecord.decodeCompactAll(blob).map(\.delivery) == Array(deliveries[2...]), "decodes alone")
    }

    @Test(arguments: [0, 1, 5, 8191, 8192, 8193, 20_000])
    func rowsOfRecordsKeepTheLimitsAndTheOrder(count: Int) {
        let records = (0..<count).map { DeliveryRecord(Self.delivery($0)) }
        let rows = EncodedDeliveryRow.rows(of: records)
        #expect(rows.count >= (count + DeliveryRowLimits.entries - 1) / DeliveryRowLimits.entries)
        #expect(rows.allSatisfy { !$0.isEmpty })
        #expect(rows.allSatisfy { $0.count <= DeliveryRowLimits.entries && $0.bytes.count <= DeliveryRowLimits.bytes })
        #expect(rows.flatMap { $0.records() }.map(\.receivedAt) == Array(0..<count))
    }
}
