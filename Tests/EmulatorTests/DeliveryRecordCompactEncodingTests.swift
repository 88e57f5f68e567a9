import Testing

@testable import Emulator

/// Format 5 of the log's records (schema version 5): read back exactly, fields and payloads equal to
/// the previous record's given by reference, damaged bytes an error naming the record, never a crash.
@Suite(.timeLimit(.minutes(1)))
struct DeliveryRecordCompactEncodingTests {
    /// `deliveries` as one row (any number of them: no limits).
    static func encoded(_ deliveries: [Delivery]) -> [UInt8] {
        var row = EncodedDeliveryRow(reusing: RowStorage(capacity: 0))
        for delivery in deliveries { _ = row.append(DeliveryRecord(delivery)) }  // within the limits
        return Array(row.bytes)
    }

    static let edgeCases: [Delivery] = [
        Delivery(
            receivedAt: Int.max, token: nil, topic: "", pushType: nil, priority: -1, apnsID: nil, uniqueID: nil,
            status: 0, reason: nil, payload: []),
        Delivery(
            receivedAt: Int.min, token: nil, topic: "", pushType: nil, priority: Int.max, apnsID: nil, uniqueID: nil,
            status: -7, reason: "", payload: [], channel: "", fault: "reset"),
        Delivery(
            receivedAt: 0, token: "é", topic: "", pushType: "alert", priority: nil, apnsID: "x", uniqueID: "y",
            status: 599, reason: "", payload: Array(repeating: 0xFF, count: 300), channel: "c", fault: "reset"),
        Delivery(
            receivedAt: 5, token: "aa", topic: "t", pushType: "alert", priority: 5, apnsID: "x", uniqueID: nil,
            status: 400, reason: "BadTopic", payload: [], collapseID: "score", expiration: 2_000_000_000),
        Delivery(
            receivedAt: 6, token: "aa", topic: "t", pushType: "alert", priority: nil, apnsID: "y", uniqueID: nil,
            status: 200, reason: nil, payload: [], collapseID: "", expiration: 0),
        Delivery(
            receivedAt: 7, token: "aa", topic: "t", pushType: "alert", priority: nil, apnsID: "z", uniqueID: nil,
            status: 200, reason: nil, payload: [], collapseID: "é", expiration: -1),
    ]

    @Test func recordsRoundTrip() throws {
        let deliveries = DeliveryRecordTests.deliveries + (1...40).map(Delivery.numbered) + Self.edgeCases
        #expect(try DeliveryRecord.decodeCompactAll(Self.encoded(deliveries)).map(\.delivery) == deliveries)
        #expect(try DeliveryRecord.decodeCompactAll([]).isEmpty)
    }

    /// A record written before flags bits 2 and 3 existed (no expiration, no collapse id) reads the same.
    @Test func aRecordWithoutExpirationOrCollapseIDBitsReads() throws {
        // flags 1 (priority), present 0b1 (token), repeats 0; time 4, status 200, priority 10, payload 2,
        // token length 2; "aa", "{}".
        let bytes: [UInt8] = [1, 1, 0, 8, 0x90, 0x03, 20, 2, 2] + Array("aa{}".utf8)
        let decoded = try DeliveryRecord.decodeCompactAll(bytes).map(\.delivery)
        #expect(
            decoded == [
                Delivery(
                    receivedAt: 4, token: "aa", topic: nil, pushType: nil, priority: 10, apnsID: nil, uniqueID: nil,
                    status: 200, reason: nil, payload: Array("{}".utf8))
            ])
    }

    /// Pushes to one app differ in token, id and payload; the rest is given by reference.
    @Test func fieldsEqualToThePreviousRecordsAreNotRepeated() throws {
        func push(_ n: Int, token: String) -> Delivery {
            Delivery(
                receivedAt: 1_767_225_600_000 + n, token: token, topic: "com.example.app", pushType: "alert",
                priority: 10, apnsID: "id-\(n)", uniqueID: nil, status: 200, reason: nil, payload: Array("{}".utf8))
        }
        let deliveries = [push(1, token: "aa"), push(2, token: "aa"), push(3, token: "bb"), push(4, token: "bb")]
        let bytes = Self.encoded(deliveries)
        #expect(try DeliveryRecord.decodeCompactAll(bytes).map(\.delivery) == deliveries)
        let first = Self.encoded([deliveries[0]]).count
        // 3 bytes; varints: time (1), status (2), priority (1), payload (1), the id's length (1); the id.
        #expect(Self.encoded(Array(deliveries[0...1])).count == first + 9 + 4, "record 2 repeats the token")
        #expect(bytes.count == first + 13 + (14 + 2) + 13, "record 3 writes its token, record 4 repeats it")
    }

    /// Every cut short of a record's end fails on the record it cuts.
    @Test(arguments: [1, 2, 3, 5, 10, 50, 80])
    func aTruncatedBlobNamesTheRecordItCuts(_ cut: Int) throws {
        let bytes = Self.encoded([.numbered(1), .numbered(2)])
        let first = Self.encoded([.numbered(1)]).count
        for (end, record) in [(cut, 0), (first + cut, 1)] where end < bytes.count && cut < first {
            let error = #expect(throws: DeliveryRecordDecodingError.self) {
                try DeliveryRecord.decodeCompactAll(Array(bytes[..<end]))
            }
            #expect(
                error?.record == record && error?.offset == (record == 0 ? 0 : first), "\(String(describing: error))")
        }
    }

    @Test(arguments: [
        (0, UInt8(16), "flags is 16, only bits 0 to 3 are defined"),
        (0, UInt8(3), "repeats the previous record's values, but is the first"),
        (2, UInt8(1), "repeats the previous record's values, but is the first"),
        (2, UInt8(0x80), "repeats fields (128) it does not have"),
    ])
    func aDamagedHeaderIsRefused(_ offset: Int, _ value: UInt8, _ rule: String) throws {
        var bytes = Self.encoded([.numbered(1)])
        bytes[offset] = value
        let error = #expect(throws: DeliveryRecordDecodingError.self) { try DeliveryRecord.decodeCompactAll(bytes) }
        #expect(error?.rule.contains(rule) == true, "\(String(describing: error))")
    }

    @Test func aVarintPastTenBytesIsRefused() throws {
        let bytes: [UInt8] = [0, 0, 0] + Array(repeating: 0x80, count: 11) + [0]
        let error = #expect(throws: DeliveryRecordDecodingError.self) { try DeliveryRecord.decodeCompactAll(bytes) }
        #expect(error?.rule == "receivedAt is not a varint within the bytes", "\(String(describing: error))")
    }

    static func varint(_ value: UInt64) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 10)
        var written = 0
        buffer.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress { Varint.write(value, to: base, at: &written) }
        }
        return Array(buffer[0..<written])
    }

    /// A record with a 64 KiB token, then `repeats` records of 6 bytes each that repeat it.
    static func amplifying(repeats: Int) -> [UInt8] {
        let text = 64 * 1024
        var bytes: [UInt8] = [0, 0b1, 0] + varint(0) + varint(0) + varint(0) + varint(UInt64(text))
        bytes += Array(repeating: UInt8(ascii: "a"), count: text)
        for _ in 0..<repeats { bytes += [0, 0b1, 0b1, 0, 0, 0] }
        return bytes
    }

    /// Found by review: 71,545 bytes decoded to 65 MB of text (a 2 MiB row to ~180 GB). Within
    /// the budget a stored row gets, it is refused, naming the record where the budget ran out.
    @Test func repeatedFieldsCannotDecodeIntoUnboundedText() throws {
        let bytes = Self.amplifying(repeats: 1000)
        #expect(try DeliveryRecord.decodeCompactAll(bytes).count == 1001)  // the format allows it
        let error = #expect(throws: DeliveryRecordDecodingError.self) {
            try DeliveryRecord.decodeCompactAll(bytes, textBudget: DeliveryRecord.textBudget(ofRow: bytes.count))
        }
        #expect(error?.rule.contains("text budget") == true, "\(String(describing: error))")
        #expect((error?.record ?? 0) > 100 && (error?.record ?? 0) < 1000, "\(String(describing: error))")
    }

    @Test func aRowWithMoreRecordsThanDeclaredIsRefused() throws {
        let bytes = Self.encoded((1...5).map(Delivery.numbered))
        #expect(try DeliveryRecord.decodeCompactAll(bytes, limit: 5).count == 5)
        let error = #expect(throws: DeliveryRecordDecodingError.self) {
            try DeliveryRecord.decodeCompactAll(bytes, limit: 4)
        }
        #expect(error?.record == 4 && error?.rule.contains("more than its 4 records") == true, "\(String(describing: error))")
    }

    /// Real rows decode within the stored rows' budget, however much their fields repeat.
    @Test func realRowsFitTheBudget() throws {
        let deliveries =
            DeliveryRecordTests.deliveries + Array(repeating: Delivery.numbered(7), count: 2000) + Self.edgeCases
        let bytes = Self.encoded(deliveries)
        let decoded = try DeliveryRecord.decodeCompactAll(
            bytes, limit: deliveries.count, textBudget: DeliveryRecord.textBudget(ofRow: bytes.count))
        #expect(decoded.map(\.delivery) == deliveries)
    }

    @Test(arguments: [0, 1, 63, 64, 127, 128, 300, -1, -64, -65, Int.max, Int.min])
    func varintsRoundTrip(_ value: Int) {
        var buffer = [UInt8](repeating: 0, count: 10)
        var written = 0
        buffer.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress { Varint.write(Varint.zigzag(value), to: base, at: &written) }
        }
        var read = 0
        let decoded = buffer.withUnsafeBytes { Varint.read($0, at: &read) }
        #expect(decoded.map(Varint.unzigzag) == value && read == written)
    }
}
