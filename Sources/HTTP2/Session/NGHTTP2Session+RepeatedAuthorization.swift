import CNghttp2

#if canImport(Glibc)
    import Glibc
#endif

// Server: a client's provider token decoded once per connection, not once per request.
//
// nghttp2 1.52's deflater sends `authorization` as a never-indexed literal in every request, its
// value Huffman-coded (h2load does, and so does every nghttp2-based client; Herald's own client
// splices in the same bytes, NGHTTP2Session+Splice.swift), so a server's inflater decodes the same
// ~200 bytes again for each request: the costliest single step of reading one. Here the received
// bytes are followed frame by frame (the client preface, then each frame's header and payload), and
// a HEADERS frame that
//   - lies wholly in one `receive`, ends its header block and fits the default frame size, and
//   - carries `authorization` as a literal not indexed or never indexed, with the static table's
//     name (index 23) and a Huffman-coded value of at least `minimumCodedCount` bytes
// goes to nghttp2 on its own: when the coded value is byte for byte the one last decoded on this
// connection, with an empty raw value in its place (the frame's length adjusted), and the header
// callback gives the stream the value decoded before; otherwise as it came, and the value nghttp2
// decodes for that field becomes the one remembered (once the request's checks accept it).
// Literals that are not indexed change neither side's dynamic table, so the inflater's state is the
// same after either form. Fields are told apart by their position in the block: with its own
// checks (nghttp2's HTTP messaging off) nghttp2 reports every field, in order.

extension NGHTTP2Session {
    /// What a server remembers to follow the framing and the last provider token. Loop-confined.
    struct RepeatedAuthorization {
        /// Bytes of the client preface still to come.
        var prefaceLeft = 24
        /// Bytes of the current frame's payload still to come.
        var payloadLeft = 0
        /// A frame header split between two receives: bytes seen, and its length field so far.
        var headerSeen = 0
        var headerLength = 0
        /// The coded value last decoded, and what it decoded to.
        var coded: [UInt8] = []
        var decoded: [UInt8] = []
        /// While one HEADERS frame is with nghttp2: the authorization field's position in its block
        /// (-1: none), whether `decoded` goes in its place (else what nghttp2 decodes is learned),
        /// the fields reported so far, and the coded value being learned.
        var fieldPosition = -1
        var substituting = false
        var fieldsReported = 0
        var learning: [UInt8] = []
        /// Frames that were given the remembered value (for tests).
        var substituted = 0
    }

    /// Shorter coded values are decoded as usual (the saving would not pay for the bookkeeping).
    static let minimumCodedCount = 32
    /// `authorization` in HPACK's static table (RFC 7541 appendix A).
    static let authorizationIndex = 23

    /// Where a frame's authorization value lies (offsets from the frame's first byte).
    struct CodedAuthorization {
        /// The field's position among the block's fields.
        let position: Int
        /// The value's string literal: its length prefix, its first coded byte, its end.
        let literalStart: Int
        let codedStart: Int
        let end: Int
    }

    /// `receive` for servers: hands `count` bytes to nghttp2, HEADERS frames that carry a provider
    /// token on their own (see above).
    func receiveFollowingFrames(_ session: OpaquePointer, _ base: UnsafePointer<UInt8>, _ count: Int)
        throws(HTTP2Error)
    {
        var position = 0
        var fed = 0
        while position < count {
            let left = count - position
            if repeated.prefaceLeft > 0 || repeated.payloadLeft > 0 {
                let skipped = min(left, repeated.prefaceLeft > 0 ? repeated.prefaceLeft : repeated.payloadLeft)
                if repeated.prefaceLeft > 0 { repeated.prefaceLeft -= skipped } else { repeated.payloadLeft -= skipped }
                position += skipped
                continue
            }
            if repeated.headerSeen > 0 || left < 9 {
                // A frame header split between receives: only its length matters here.
                let taken = min(left, 9 - repeated.headerSeen)
                for offset in 0..<taken where repeated.headerSeen + offset < 3 {
                    repeated.headerLength = repeated.headerLength << 8 | Int(base[position + offset])
                }
                repeated.headerSeen += taken
                position += taken
                if repeated.headerSeen == 9 {
                    repeated.payloadLeft = repeated.headerLength
                    repeated.headerSeen = 0
                    repeated.headerLength = 0
                }
                continue
            }
            let length = Int(base[position]) << 16 | Int(base[position + 1]) << 8 | Int(base[position + 2])
            guard length <= left - 9 else {
                position += 9
                repeated.payloadLeft = length
                continue
            }
            if base[position + 3] == NGHTTP2.frameHeaders,
                let field = Self.codedAuthorization(inFrame: base + position, count: 9 + length)
            {
                try feed(session, base + fed, position - fed)
                try feedHeaders(session, base + position, count: 9 + length, field)
                fed = position + 9 + length
            }
            position += 9 + length
        }
        try feed(session, base + fed, count - fed)
    }

    /// Hands one HEADERS frame to nghttp2, with the remembered value's placeholder if its coded
    /// value is the remembered one.
    private func feedHeaders(
        _ session: OpaquePointer, _ frame: UnsafePointer<UInt8>, count: Int, _ field: CodedAuthorization
    ) throws(HTTP2Error) {
        let coded = UnsafeBufferPointer(start: frame + field.codedStart, count: field.end - field.codedStart)
        repeated.fieldPosition = field.position
        repeated.fieldsReported = 0
        defer { repeated.fieldPosition = -1 }
        let same =
            coded.count == repeated.coded.count
            && repeated.coded.withUnsafeBufferPointer { remembered in
                guard let base = remembered.baseAddress else { return false }
                return memcmp(base, frame + field.codedStart, coded.count) == 0
            }
        guard same else {
            repeated.substituting = false
            repeated.learning = Array(coded)
            try feed(session, frame, count)
            return
        }
        repeated.substituting = true
        repeated.substituted += 1
        // The frame again, the value's literal replaced by an empty raw one (a zero length byte).
        let length = count - 9 - (field.end - field.literalStart) + 1
        // Laid out with two copies into room kept from frame to frame: appending byte runs to the
        // array checked its uniqueness and capacity at each step, for every request.
        if inboundScratch.count < 9 + length { inboundScratch = [UInt8](repeating: 0, count: max(9 + length, 512)) }
        try inboundScratch.withUnsafeMutableBufferPointer { (scratch) throws(HTTP2Error) in
            guard let out = scratch.baseAddress else { return }
            out[0] = UInt8(truncatingIfNeeded: length >> 16)
            out[1] = UInt8(truncatingIfNeeded: length >> 8)
            out[2] = UInt8(truncatingIfNeeded: length)
            (out + 3).update(from: frame + 3, count: field.literalStart - 3)
            out[field.literalStart] = 0
            (out + field.literalStart + 1).update(from: frame + field.end, count: count - field.end)
            try feed(session, out, 9 + length)
        }
    }

    /// The header callback's part: the field at the remembered position gets the remembered value
    /// (or teaches it). Calls `take` with the value to keep, and whether the request checks accepted
    /// it before (the remembered value: it is remembered only once accepted); returns what it returns.
    @inline(__always)
    func withRepeatedAuthorization(
        _ value: UnsafeBufferPointer<UInt8>, _ take: (UnsafeBufferPointer<UInt8>, Bool) -> FieldOutcome
    ) -> FieldOutcome {
        let position = repeated.fieldsReported
        repeated.fieldsReported += 1
        guard position == repeated.fieldPosition else { return take(value, false) }
        if repeated.substituting {
            return repeatedDecoded.withUnsafeBufferPointer { take($0, true) }
        }
        let outcome = take(value, false)
        if case .taken = outcome {
            repeated.coded = repeated.learning
            repeatedDecoded = Array(value)
        }
        return outcome
    }

    /// The provider token's coded value in one HEADERS frame (`count` bytes, the whole frame), if
    /// the frame qualifies (see above).
    static func codedAuthorization(inFrame frame: UnsafePointer<UInt8>, count: Int) -> CodedAuthorization? {
        guard count - 9 <= minimumMaxFrameSize, let layout = HeadersFrameLayout(frame, count), layout.endsHeaders else {
            return nil
        }
        let block = layout.block(frame)
        var offset = 0
        var position = 0
        while offset < block.count {
            let first = block[offset]
            if first & 0x80 != 0 {  // indexed field
                guard skipInteger(block, &offset, prefixBits: 7) else { return nil }
                position += 1
                continue
            }
            if first & 0xE0 == 0x20 {  // dynamic table size update: not a field
                guard skipInteger(block, &offset, prefixBits: 5) else { return nil }
                continue
            }
            // A literal: with incremental indexing (01), without (0000) or never indexed (0001).
            let indexed = first & 0x40 != 0
            guard let nameIndex = readInteger(block, &offset, prefixBits: indexed ? 6 : 4) else { return nil }
            if nameIndex == 0 {
                guard skipString(block, &offset) else { return nil }
            }
            let literalStart = offset
            guard offset < block.count else { return nil }
            let huffman = block[offset] & 0x80 != 0
            guard skipString(block, &offset) else { return nil }
            if !indexed, nameIndex == authorizationIndex, huffman {
                // The coded bytes are the literal's last `length` bytes; its prefix is 1 to 4 bytes.
                var prefixEnd = literalStart
                guard let coded = readInteger(block, &prefixEnd, prefixBits: 7), coded >= minimumCodedCount else {
                    return nil
                }
                return CodedAuthorization(
                    position: position, literalStart: layout.blockStart + literalStart,
                    codedStart: layout.blockStart + prefixEnd, end: layout.blockStart + offset)
            }
            position += 1
        }
        return nil
    }
}
