import CNghttp2

// Plain values (`HTTP2HeaderBuffer.append(..., plainValue: true)`): fields sent as never-indexed
// literals whose value is a plain string (RFC 7541 section 5.2, H = 0), written by the session.
//
// nghttp2 1.52 Huffman-codes every value that comes out shorter for it, so an id or a path with a
// device token, different in every message, is coded bit by bit on every send (and decoded so on
// every receive). For such a field nghttp2 is given a placeholder value, one NUL byte: it writes
// the field's name as it always would (by index where either table has it), then the placeholder
// as a one-byte plain string (Huffman coding would lengthen it), `01 00`. The value waits in the
// stream slot's room (`PlainLiteralRooms`) as the string literal that replaces those two bytes
// when the HEADERS frame leaves nghttp2 (NGHTTP2Session+Splice.swift). A never-indexed literal touches neither side's dynamic
// table, so what follows in the block is encoded the same either way.
//
// NUL is never a valid field value (RFC 9113 section 8.2.1), so a never-indexed literal with the
// plain value NUL is a placeholder, whatever else the block holds; a frame that carries one with
// nothing to put in fails the session rather than leave.

extension NGHTTP2Session {
    /// The value nghttp2 is given for a plain value: one NUL byte, which no valid field has.
    // SAFETY: allocated and written once by the lazy initialiser; afterwards only read, by nghttp2.
    nonisolated(unsafe) static let plainPlaceholder: UnsafeMutablePointer<UInt8> = {
        let byte = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        byte.initialize(to: 0)
        return byte
    }()

    /// The placeholder's value as nghttp2 writes it: a plain string of one byte, NUL.
    static let plainPlaceholderString: (UInt8, UInt8) = (0x01, 0x00)

    /// Whether `buffer`'s plain values go in by splice: only when their literals fit a slot's room,
    /// the whole header block is sure to fit one frame (nghttp2 would split a larger one into
    /// CONTINUATION frames, which the splice does not rewrite), and the library hands out whole
    /// frames. Otherwise nghttp2 gets them as ordinary fields.
    func splicesPlainValues(block: HTTP2HeaderBlock?, buffer: HTTP2HeaderBuffer, fieldCount: Int) -> Bool {
        guard buffer.plainCount > 0,
            buffer.plainByteCount + 3 * buffer.plainCount <= PlainLiteralRooms.roomSize,
            HPACKPreEncodedField.libraryHandsOutWholeFrames
        else { return false }
        // A representation is at most its name, its value and 8 bytes of prefix and lengths (for
        // names and values under 16,384 bytes); 8 more for a table size update.
        let bound =
            (block?.byteCount ?? 0) + buffer.byteCount + 8 * fieldCount + 8
            + (block?.preEncoded?.encoded.count ?? 0)
        return bound <= Self.minimumMaxFrameSize
    }

    /// Writes the `count` bytes at `value` as an HPACK string literal without Huffman coding: the
    /// length (an integer with a 7-bit prefix, RFC 7541 section 5.1), then the bytes. Returns the
    /// bytes written (at most `count` + 3 for values under 16,384 bytes).
    static func writePlainLiteral(_ value: UnsafePointer<UInt8>, _ count: Int, to out: UnsafeMutablePointer<UInt8>)
        -> Int
    {
        var written = 0
        if count < 0x7F {
            out[0] = UInt8(truncatingIfNeeded: count)
            written = 1
        } else {
            out[0] = 0x7F
            written = 1
            var rest = count - 0x7F
            while rest >= 0x80 {
                out[written] = UInt8(truncatingIfNeeded: rest & 0x7F) | 0x80
                written += 1
                rest >>= 7
            }
            out[written] = UInt8(truncatingIfNeeded: rest)
            written += 1
        }
        (out + written).update(from: value, count: count)
        return written + count
    }
}

/// A room of `roomSize` bytes per stream slot, where a slot's plain values wait as string literals
/// until its HEADERS frame leaves (one allocation per session, grown with the slot table; no array
/// per stream). Values that do not fit a room are sent as ordinary fields.
struct PlainLiteralRooms {
    /// Room for an APNs request's `:path` (a token of up to 100 bytes) and `apns-id`, or an answer's
    /// two ids.
    static let roomSize = 160

    private var base: UnsafeMutablePointer<UInt8>?
    private var slotCapacity = 0

    /// Slot `index`'s room (made on first use; the rooms of other slots keep their bytes).
    mutating func room(_ index: Int32) -> UnsafeMutablePointer<UInt8> {
        let slot = Int(index)
        if let base, slot < slotCapacity { return base + slot * Self.roomSize }
        let capacity = max(slot + 1, slotCapacity * 2, 8)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * Self.roomSize)
        if let base {
            grown.initialize(from: base, count: slotCapacity * Self.roomSize)
            base.deallocate()
        }
        base = grown
        slotCapacity = capacity
        return grown + slot * Self.roomSize
    }

    /// Slot `index`'s room, if it has one.
    func existingRoom(_ index: Int32) -> UnsafeMutablePointer<UInt8>? {
        guard let base, Int(index) < slotCapacity else { return nil }
        return base + Int(index) * Self.roomSize
    }

    func deallocate() {
        base?.deallocate()
    }
}
