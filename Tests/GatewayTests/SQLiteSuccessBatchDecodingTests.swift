import APNs
import Storage
import Testing

@testable import Gateway

/// A success batch's blob (`SQLiteSuccessBatch.members`) is outside input once stored: only what the
/// encoder writes decodes, anything else is refused, and the store names the table and column.
/// The refused cases were found writing the `success-batch` fuzz target's property (docs/FUZZING.md).
@Suite(.timeLimit(.minutes(1)))
struct SQLiteSuccessBatchDecodingTests {
    private func member(_ index: Int, uniqueID: String? = nil) -> SQLiteSuccessBatch.Member {
        SQLiteSuccessBatch.Member(
            apnsID: Array(repeating: UInt8(index & 0xff), count: 16), recipient: "ab\(index)",
            environment: index % 2 == 0 ? .production : .sandbox, apnsUniqueID: uniqueID)
    }

    private func encoded(_ members: [SQLiteSuccessBatch.Member]) -> [UInt8] {
        var batch = SQLiteSuccessBatch()
        for member in members { _ = batch.append(member) }
        return batch.bytes
    }

    @Test func whatTheEncoderWritesDecodesToTheSameMembers() {
        let members = [member(0), member(1, uniqueID: "u-1"), member(2, uniqueID: "")]
        #expect(SQLiteSuccessBatch(bytes: encoded(members)).members() == members)
        #expect(SQLiteSuccessBatch(bytes: []).members() == [])
    }

    @Test func aTruncatedBlobIsRefused() {
        let bytes = encoded([member(0, uniqueID: "u-0")])
        for length in 1..<bytes.count {
            #expect(SQLiteSuccessBatch(bytes: Array(bytes.prefix(length))).members() == nil, "\(length) bytes")
        }
    }

    /// Minimized: 16 zero bytes, flags 0x04, an empty recipient. The old decoder ignored the bit.
    @Test func aFlagTheEncoderNeverSetsIsRefused() {
        #expect(SQLiteSuccessBatch(bytes: Array(repeating: 0, count: 16) + [0x04, 0, 0]).members() == nil)
        var bytes = encoded([member(0)])
        bytes[16] |= 0x80
        #expect(SQLiteSuccessBatch(bytes: bytes).members() == nil)
    }

    /// Minimized: a one-byte recipient 0xff. The old decoder read it as U+FFFD, a recipient never recorded.
    @Test func textThatIsNotUTF8IsRefused() {
        let apnsID = [UInt8](repeating: 0, count: 16)
        #expect(SQLiteSuccessBatch(bytes: apnsID + [0x00, 1, 0, 0xff]).members() == nil, "the recipient")
        #expect(SQLiteSuccessBatch(bytes: apnsID + [0x02, 1, 0, 0x61, 1, 0, 0xc3]).members() == nil, "the unique id")
    }

    /// A member past `StoreLimits.maximumBatch` would have a listing key of the next seq (a position
    /// needs more than its 14 bits). The old decoder returned all of them.
    @Test func moreMembersThanABatchHoldsAreRefused() {
        let one = encoded([member(0)])
        let full = Array([[UInt8]](repeating: one, count: StoreLimits.maximumBatch).joined())
        #expect(SQLiteSuccessBatch(bytes: full).members()?.count == StoreLimits.maximumBatch)
        #expect(SQLiteSuccessBatch(bytes: full + one).members() == nil)
    }

    @Test func aCorruptStoredBatchIsAnErrorNamingItsTableAndColumn() async throws {
        let fixture = try GatewayStoreFixture(.sqlite)
        defer { fixture.remove() }
        let store = try #require(fixture.store as? SQLiteGatewayStore)
        try await store.importDevices((1...3).map { try registration($0, tags: ["t"]) }, now: Clock.start)
        let id = try await store.createNotification(request(to: .tags(["t"])), id: "n-1", now: Clock.start)
            .notification.id
        let chunk = try await store.expandAndClaim(
            id: id, chunkSize: 10, claimer: "a", leaseMilliseconds: 30_000, now: Clock.start
        ).claim.deliveries
        try await store.recordOutcomes(
            chunk.map { DeliveryOutcome($0, result: .succeeded(apnsUniqueID: nil)) }, backoff: DeliveryBackoff(),
            now: Clock.start + 1)
        let seq = try await store.withDatabase { database in
            _ = try database.run(
                "UPDATE delivery_successes SET members = ?",
                [.blob(Array(repeating: 0, count: 16) + [0x04, 0, 0])])
            return try database.query("SELECT seq FROM delivery_successes") { $0.int(0) ?? -1 }
        }
        try #require(seq.count == 1)
        await #expect(
            throws: GatewayStoreError.corrupt(table: "delivery_successes", column: "members", value: "batch \(seq[0])")
        ) {
            try await store.deliveries(notificationID: id, after: nil, limit: 10)
        }
    }
}
