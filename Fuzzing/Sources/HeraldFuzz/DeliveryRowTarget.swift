@testable import Emulator

/// The delivery-log row decoder: a stored row is outside input after a crash or an edit. The first
/// byte picks the format (even: 4, odd: 5) and, for format 5, the second the number of records the
/// row declares; the rest is the blob, decoded with the limits the SQLite store uses. What decodes
/// encodes again and decodes to the same deliveries.
enum DeliveryRowTarget {
    static func run(_ input: UnsafeBufferPointer<UInt8>) {
        guard input.count >= 2 else { return }
        let blob = Array(input.dropFirst(2))
        let records: [DeliveryRecord]
        if input[0] % 2 == 0 {
            guard let decoded = try? DeliveryRecord.decodeAll(blob) else { return }
            records = decoded
            let again = try? DeliveryRecord.decodeAll(DeliveryRecord.encode(records))
            require(again?.map(\.delivery) == records.map(\.delivery), "format 4 does not round-trip")
        } else {
            guard
                let decoded = try? DeliveryRecord.decodeCompactAll(
                    blob, limit: Int(input[1]), textBudget: DeliveryRecord.textBudget(ofRow: blob.count))
            else { return }
            records = decoded
            let again = EncodedDeliveryRow.rows(of: records).flatMap { $0.records() }
            require(again.map(\.delivery) == records.map(\.delivery), "format 5 does not round-trip")
        }
        require(records.count <= blob.count, "\(records.count) records from \(blob.count) bytes")
    }
}

extension DeliveryRowTarget {
    /// Seed inputs: rows of both formats as the emulator writes them (no text file can hold them).
    static func seeds() -> [String: [UInt8]] {
        let token = String(repeating: "ab", count: 32)
        let deliveries = [
            Delivery(
                receivedAt: 1_800_000_000_123, token: token, topic: "com.example.app", pushType: "alert", priority: 10,
                apnsID: "123e4567-e89b-12d3-a456-426655440000", uniqueID: "0f0e0d0c-0b0a-0908-0706-050403020100",
                status: 200, reason: nil, payload: Array(#"{"aps":{"alert":"hi"}}"#.utf8)),
            Delivery(
                receivedAt: 1_800_000_000_124, token: token, topic: "com.example.app", pushType: "alert", priority: 10,
                apnsID: "123e4567-e89b-12d3-a456-426655440001", uniqueID: nil, status: 400, reason: "BadDeviceToken",
                payload: Array(#"{"aps":{"alert":"hi"}}"#.utf8), fault: "drop", collapseID: "c", expiration: 0),
            Delivery(
                receivedAt: 1_800_000_000_125, token: nil, topic: "com.example.app", pushType: "liveactivity",
                priority: 5, apnsID: nil, uniqueID: nil, status: 200, reason: nil, payload: [], channel: "Y2hhbm5lbA=="),
        ]
        let records = deliveries.map(DeliveryRecord.init)
        var seeds: [String: [UInt8]] = ["format-4": [0, 0] + DeliveryRecord.encode(records)]
        for (index, row) in EncodedDeliveryRow.rows(of: records).enumerated() {
            seeds["format-5-\(index)"] = [1, UInt8(row.count)] + row.withBlob { Array($0) }
        }
        return seeds
    }
}
