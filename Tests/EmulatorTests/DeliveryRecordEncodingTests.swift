import Testing

@testable import Emulator

/// Records as the SQLite store keeps them: back to back in one blob, read back exactly; damaged
/// bytes are an error naming the record, never a crash.
@Suite(.timeLimit(.minutes(1)))
struct DeliveryRecordEncodingTests {
    static func encoded(_ deliveries: [Delivery]) -> [UInt8] {
        DeliveryRecord.encode(deliveries.map(DeliveryRecord.init))
    }

    @Test func recordsBackToBackRoundTrip() throws {
        let deliveries = DeliveryRecordTests.deliveries + (1...20).map(Delivery.numbered)
        let bytes = Self.encoded(deliveries)
        #expect(bytes.count == deliveries.reduce(0) { $0 + DeliveryRecord($1).encodedSize })
        #expect(try DeliveryRecord.decodeAll(bytes).map(\.delivery) == deliveries)
        #expect(try DeliveryRecord.decodeAll([]).isEmpty)
        #expect(DeliveryRecord.encode([]).isEmpty)
    }

    @Test func theLayoutIsTheDocumentedOne() {
        let bytes = Self.encoded([
            Delivery(
                receivedAt: 0x0102, token: "ab", topic: nil, pushType: "x", priority: 10, apnsID: nil, uniqueID: nil,
                status: 410, reason: nil, payload: [0xEE])
        ])
        let parts: [[UInt8]] = [
            [0x02, 0x01, 0, 0, 0, 0, 0, 0],  // receivedAt 0x0102
            [0x9A, 0x01, 0, 0, 0, 0, 0, 0],  // status 410
            [10, 0, 0, 0, 0, 0, 0, 0],  // priority
            [0b101, 1],  // token and pushType present; priority present
            [2, 0, 0, 0], [2, 0, 0, 0], [3, 0, 0, 0], [3, 0, 0, 0],  // ends: token, topic, pushType, apnsID
            [3, 0, 0, 0], [3, 0, 0, 0], [3, 0, 0, 0], [3, 0, 0, 0],  // uniqueID, reason, channel, fault
            [1, 0, 0, 0],  // payload length
            Array("abx".utf8), [0xEE],
        ]
        #expect(bytes == parts.flatMap { $0 })
    }

    /// Every cut of a two-record blob short of a record boundary fails on the record it cuts.
    @Test(arguments: [1, 30, 61, 62, 63, 100])
    func aTruncatedBlobNamesTheRecordItCuts(_ cut: Int) throws {
        let bytes = Self.encoded([.numbered(1), .numbered(2)])
        let first = DeliveryRecord(.numbered(1)).encodedSize
        for (end, record) in [(cut, 0), (first + cut, 1)] where end < bytes.count {
            let error = #expect(throws: DeliveryRecordDecodingError.self) {
                try DeliveryRecord.decodeAll(Array(bytes[..<end]))
            }
            #expect(
                error?.record == record && error?.offset == (record == 0 ? 0 : first), "\(String(describing: error))")
        }
    }

    @Test(arguments: [
        (25, UInt8(2), "flags is 2, only bit 0 is defined"),
        (26 + 4, UInt8(0), "field 1 ends at 0, before"),
        (58 + 3, UInt8(0x7F), "need more than the"),
    ])
    func aDamagedHeaderIsRefused(_ offset: Int, _ value: UInt8, _ rule: String) throws {
        var bytes = Self.encoded([.numbered(1)])
        bytes[offset] = value
        let error = #expect(throws: DeliveryRecordDecodingError.self) { try DeliveryRecord.decodeAll(bytes) }
        #expect(error?.rule.contains(rule) == true, "\(String(describing: error))")
    }
}
