// A chunk's successes recorded together: one `delivery_successes` row for the members of one chunk
// that one `recordOutcomes` call ended as succeeded (docs/GATEWAY.md, "Chunks"). A row per success
// dirtied a random page of `deliveries_by_recipient` for each one (tokens are random), which bounded
// a fan-out on the store's thread; a batch is one row and its members one blob.
//
// The blob is the members in the chunk's order, each:
//   16 bytes   its apns-id (`SQLiteAPNsID.bytes`)
//   1 byte     flags: 1 production (else sandbox), 2 an apns-unique-id follows
//   2 bytes    the recipient's length in bytes, little-endian, then its UTF-8 bytes
//   [2 bytes   the apns-unique-id's length, then its bytes]
// A success is at its first attempt (a retried member has a row), so attempts is 1 and its last
// attempt the batch's recorded_at.
//
// Listing keys: a batch's seq is drawn from the numbers of `deliveries.seq` (`nextSeqSQL`: rows and
// batches never share one), and an entry's key is its seq << 14 | its position in the batch (0
// for a row): one order over rows and members, in the order they were recorded, which the listing
// cursor follows. A batch holds at most `StoreLimits.maximumBatch` (< 2^14) members.
import APNs
import Storage

struct SQLiteSuccessBatch: Sendable {
    struct Member: Sendable, Hashable {
        var apnsID: [UInt8]
        var recipient: String
        var environment: Environment
        var apnsUniqueID: String?
    }

    private static let positionBits = 14

    /// The seq of the next delivery row or success batch: both tables draw from one sequence.
    static let nextSeqSQL = """
        (SELECT max(coalesce((SELECT max(seq) FROM deliveries), 0),
            coalesce((SELECT max(seq) FROM delivery_successes), 0)) + 1)
        """

    static func key(row seq: Int) -> Int { seq << positionBits }

    static func key(batch seq: Int, position: Int) -> Int { seq << positionBits | position }

    /// The seq of the row or batch holding the entry at `key`.
    static func seq(of key: Int) -> Int { key >> positionBits }

    private(set) var bytes: [UInt8] = []
    private(set) var count = 0

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity * 90)
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Appends a member; false (and nothing appended) when its recipient or unique id is too long
    /// for the format: such a success is recorded as a row.
    mutating func append(_ member: Member) -> Bool {
        let recipient = Array(member.recipient.utf8)
        let uniqueID = member.apnsUniqueID.map { Array($0.utf8) }
        guard member.apnsID.count == 16, recipient.count <= 0xffff, (uniqueID?.count ?? 0) <= 0xffff else {
            return false
        }
        bytes += member.apnsID
        bytes.append((member.environment == .production ? 1 : 0) | (uniqueID == nil ? 0 : 2))
        Self.appendLength(recipient.count, to: &bytes)
        bytes += recipient
        if let uniqueID {
            Self.appendLength(uniqueID.count, to: &bytes)
            bytes += uniqueID
        }
        count += 1
        return true
    }

    /// The members, in order; nil when the blob does not parse. The encoder's output is the only
    /// blob that parses (a flag it never sets, text that is not UTF-8, more members than a batch
    /// holds are refused), so a corrupt row is an error rather than members that differ from the
    /// ones recorded: a member past the batch limit would take a listing key of the next seq.
    func members() -> [Member]? {
        var members: [Member] = []
        var index = 0
        func take(_ length: Int) -> ArraySlice<UInt8>? {
            guard length <= bytes.count - index else { return nil }
            defer { index += length }
            return bytes[index..<index + length]
        }
        func length() -> Int? {
            guard let two = take(2) else { return nil }
            return Int(two[two.startIndex]) | Int(two[two.startIndex + 1]) << 8
        }
        while index < bytes.count {
            guard members.count < StoreLimits.maximumBatch, let apnsID = take(16), let flags = take(1)?.first,
                flags & ~3 == 0, let recipientLength = length(), let recipientBytes = take(recipientLength),
                let recipient = String(validating: recipientBytes, as: UTF8.self)
            else { return nil }
            var uniqueID: String?
            if flags & 2 != 0 {
                guard let uniqueLength = length(), let unique = take(uniqueLength),
                    let text = String(validating: unique, as: UTF8.self)
                else { return nil }
                uniqueID = text
            }
            members.append(
                Member(
                    apnsID: Array(apnsID), recipient: recipient,
                    environment: flags & 1 != 0 ? .production : .sandbox, apnsUniqueID: uniqueID))
        }
        return members
    }

    private static func appendLength(_ length: Int, to bytes: inout [UInt8]) {
        bytes.append(UInt8(truncatingIfNeeded: length))
        bytes.append(UInt8(truncatingIfNeeded: length >> 8))
    }
}
