// How a delivery of a claimed chunk is named before it has a row (docs/GATEWAY.md, "Chunks").
//
// Its id is negative, so it never meets a row's seq: -(chunk seq << 14 | its position among the
// chunk's members read in cursor order). A chunk holds at most `StoreLimits.maximumBatch` (10,000 <
// 2^14) members, and reading the chunk again after its lease ran out gives the same positions.
//
// Its apns-id is derived, not drawn: the notification's 16 random bytes (`apns_base`, drawn when it
// is created) with the recipient's cursor (a device's seq, a token's place in the list) added to the
// last 6 bytes, modulo 2^48, read as `SQLiteAPNsID` reads stored bytes (version 4's bits set; they
// are not in those 6 bytes). Within a notification distinct cursors give distinct ids; across
// notifications the 74 random bits of the base outside those bytes keep them apart. So the id is
// fixed when the notification is made, and a chunk sent again after a crash carries the same ids.
import APNs
import Storage

enum SQLiteChunkDelivery {
    private static let positionBits = 14

    static func id(chunk: Int, position: Int) -> Int { -(chunk << positionBits | position) }

    /// The chunk of a delivery id, nil for a row's id.
    static func chunk(of id: Int) -> Int? { id < 0 ? -id >> positionBits : nil }

    static func position(of id: Int) -> Int { -id & (1 << positionBits - 1) }

    /// The apns-id of the recipient at `cursor`; nil when `base` is not 16 bytes.
    static func apnsID(base: [UInt8], cursor: Int) -> APNsID? {
        guard base.count == 16 else { return nil }
        var bytes = base
        var carry = UInt64(truncatingIfNeeded: cursor) & (1 << 48 - 1)
        for index in stride(from: 15, through: 10, by: -1) {
            let sum = UInt64(bytes[index]) + (carry & 0xff)
            bytes[index] = UInt8(truncatingIfNeeded: sum)
            carry = (carry >> 8) + (sum >> 8)
        }
        return SQLiteAPNsID.read(.blob(bytes))
    }
}
