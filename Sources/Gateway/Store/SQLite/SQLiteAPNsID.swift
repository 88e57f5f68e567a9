// How `deliveries.apns_id` holds an apns-id: 16 bytes, the UUID's 128 bits in order. SQL draws them
// with one `randomblob(16)` per row, which cannot set a version 4 UUID's version and variant bits
// (SQLite 3.40 has no `unhex`), so the apns-id of a row is its bytes with those bits set: the same
// bytes always read back as the same apns-id. An id made in Swift (a version 4 UUID already) is
// stored as its bytes and reads back unchanged. Rows from before migration 2 held the text form;
// the migration converts each to its bytes, and a text value the conversion would change (not a
// version 4 UUID) is left as text, which reads back as it is.
import APNs
import Storage

enum SQLiteAPNsID {
    /// The 16 bytes that store `id`.
    static func bytes(_ id: APNsID) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var high: UInt8?
        for character in id.value.utf8 {
            guard let digit = Hex.value(of: character) else { continue }  // the dashes
            if let first = high {
                bytes.append(first << 4 | digit)
                high = nil
            } else {
                high = digit
            }
        }
        return bytes
    }

    /// The apns-id a stored value names, nil when it is neither 16 bytes nor a UUID's text.
    static func read(_ value: SQLiteValue) -> APNsID? {
        switch value {
        case .blob(let bytes) where bytes.count == 16:
            var halves = Halves(
                high: bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) },
                low: bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) })
            return APNsID.random(using: &halves)
        case .text(let text):
            return try? APNsID(text)
        default:
            return nil
        }
    }

    /// Migration 2's conversion of the text apns-ids to bytes (see above), a page of rows at a
    /// time so that a large table is never held in memory.
    @Sendable static func convertTextIDs(_ database: SQLiteDatabase) throws {
        var cursor = 0
        while true {
            let rows = try database.query(
                """
                SELECT seq, apns_id FROM deliveries WHERE seq > ? AND typeof(apns_id) = 'text'
                    ORDER BY seq LIMIT 10000
                """,
                [.integer(cursor)]
            ) { statement in (statement.int(0) ?? 0, statement.string(1) ?? "") }
            guard let last = rows.last else { return }
            cursor = last.0
            for (seq, text) in rows {
                guard let id = try? APNsID(text) else { continue }
                let bytes = bytes(id)
                guard read(.blob(bytes)) == id else { continue }
                try database.run("UPDATE deliveries SET apns_id = ? WHERE seq = ?", [.blob(bytes), .integer(seq)])
            }
        }
    }

    /// Hands `APNsID.random(using:)` the two halves of stored bytes in place of random draws.
    private struct Halves: RandomNumberGenerator {
        var high: UInt64
        var low: UInt64
        mutating func next() -> UInt64 {
            defer { (high, low) = (low, 0) }
            return high
        }
    }
}
