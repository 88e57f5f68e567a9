import APNs

@testable import Gateway

/// The SQLite gateway store's success-batch blob (`SQLiteSuccessBatch`, one `delivery_successes`
/// row's `members`): a stored row is outside input after a crash or an edit. The input is the blob.
/// What decodes is what the encoder writes: its members encode again to the same bytes; never more
/// members than the bytes hold (the smallest member is 19 bytes) or than a batch holds.
enum SuccessBatchTarget {
    /// An apns-id, a flags byte and the recipient's length, with an empty recipient.
    static let smallestMember = 19

    static func run(_ input: UnsafeBufferPointer<UInt8>) {
        let bytes = Array(input)
        guard let members = SQLiteSuccessBatch(bytes: bytes).members() else { return }
        require(
            members.count * smallestMember <= bytes.count, "\(members.count) members from \(bytes.count) bytes")
        require(members.count <= StoreLimits.maximumBatch, "\(members.count) members in one batch")
        var again = SQLiteSuccessBatch()
        for member in members {
            require(again.append(member), "a decoded member does not encode: \(member)")
        }
        require(again.count == members.count, "\(again.count) members encoded of \(members.count)")
        require(again.bytes == bytes, "the members encode to other bytes")
    }
}

extension SuccessBatchTarget {
    /// Seed inputs: batches as the store writes them (no text file can hold them).
    static func seeds() -> [String: [UInt8]] {
        let token = String(repeating: "ab", count: 32)
        let members = [
            SQLiteSuccessBatch.Member(
                apnsID: Array(0..<16), recipient: token, environment: .production, apnsUniqueID: nil),
            SQLiteSuccessBatch.Member(
                apnsID: Array(16..<32), recipient: token, environment: .sandbox,
                apnsUniqueID: "0f0e0d0c-0b0a-0908-0706-050403020100"),
            SQLiteSuccessBatch.Member(
                apnsID: Array(repeating: 0xff, count: 16), recipient: "Y2hhbm5lbA==", environment: .production,
                apnsUniqueID: ""),
        ]
        var seeds: [String: [UInt8]] = [:]
        for count in [1, 3] {
            var batch = SQLiteSuccessBatch()
            for member in members.prefix(count) { _ = batch.append(member) }
            seeds["members-\(count)"] = batch.bytes
        }
        return seeds
    }
}
