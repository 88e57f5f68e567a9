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
        (25, UInt8(4), "flags is 4, only bits 0 and 1 are defined"),
        (25, UInt8(2), "repeats the previous record's payload, but is the first"),
        (26 + 4, UInt8(0), "field 1 ends at 0, before"),
        (58 + 3, UInt8(0x7F), "need more than the"),
    ])
    func aDamagedHeaderIsRefused(_ offset: Int, _ value: UInt8, _ rule: String) throws {
        var bytes = Self.encoded([.numbered(1)])
        bytes[offset] = value
        let error = #expect(throws: DeliveryRecordDecodingError.self) { try DeliveryRecord.decodeAll(bytes) }
        #expect(error?.rule.contains(rule) == true, "\(String(describing: error))")
    }

    /// A payload equal to the previous record's (a notification fanned out to many tokens) is
    /// written once per run of equal payloads: the records read back the same, sharing the bytes.
    @Test func repeatedPayloadsAreWrittenOnce() throws {
        let payload = Array(#"{"aps":{"alert":"sale"}}"#.utf8)
        func delivery(_ token: String, _ payload: [UInt8]) -> Delivery {
            Delivery(
                receivedAt: 1, token: token, topic: "com.example.app", pushType: "alert", priority: 10,
                apnsID: nil, uniqueID: nil, status: 200, reason: nil, payload: payload)
        }
        let other = Array(#"{"aps":{"alert":"other"}}"#.utf8)
        let deliveries = [
            delivery("aa", payload), delivery("bb", Array(payload)), delivery("cc", payload), delivery("dd", other),
            delivery("ee", payload), delivery("ff", []), delivery("00", []),
        ]
        let bytes = Self.encoded(deliveries)
        let full = deliveries.reduce(0) { $0 + DeliveryRecord($1).encodedSize }
        #expect(bytes.count == full - 2 * payload.count, "the second and third payloads are not repeated")
        #expect(try DeliveryRecord.decodeAll(bytes).map(\.delivery) == deliveries)
    }

    /// A record that repeats the previous payload must say its length as that payload has it.
    @Test func aRepeatedPayloadOfAnotherLengthIsRefused() throws {
        let payload = Array("{}".utf8)
        func delivery(_ token: String) -> Delivery {
            Delivery(
                receivedAt: 1, token: token, topic: nil, pushType: nil, priority: nil, apnsID: nil, uniqueID: nil,
                status: 200, reason: nil, payload: payload)
        }
        var bytes = Self.encoded([delivery("aa"), delivery("bb")])
        let second = DeliveryRecord(delivery("aa")).encodedSize
        #expect(bytes[second + 25] == 2, "the second record repeats the payload")
        bytes[second + 58] = 3
        let error = #expect(throws: DeliveryRecordDecodingError.self) { try DeliveryRecord.decodeAll(bytes) }
        #expect(error?.record == 1 && error?.rule.contains("repeats the previous payload (2 bytes) as 3 bytes") == true)
    }
}
