import CNghttp2

// Fields the session writes itself go into HEADERS frames as the frames leave nghttp2: a block's
// pre-encoded field (HPACKPreEncodedField) in place of its placeholder's representation, and plain
// values (NGHTTP2Session+PlainValues.swift) in place of their placeholder values.
//
// nghttp2 1.52's mem_send hands out one frame per call (a header block too large for one frame
// comes as HEADERS, then each CONTINUATION, in calls of their own), so a chunk that starts with a
// HEADERS frame header is that whole frame. The frame's stream finds the slot (through the frame
// nghttp2 reported sent just before, as a server's stream may already be closed) and so what goes
// in; the placeholders are found by walking the header block's representations (RFC 7541 section
// 6), not by searching bytes. Every representation replaced is a never-indexed literal, and so is
// what replaces it, so neither dynamic table sees either, and the block decodes to the real fields.
//
// If that cannot be done (no END_HEADERS, a placeholder not found or left over, the frame grown
// past the 16,384 bytes every peer accepts), the session fails rather than send a placeholder.

extension NGHTTP2Session {
    /// The frame size every peer accepts (RFC 9113 section 4.2); nghttp2 splits header blocks there.
    static let minimumMaxFrameSize = 16_384

    /// Appends one mem_send chunk that starts with a HEADERS frame header to `buffer`, with the
    /// fields of its stream's slot put in. Returns false, appending nothing, when the frame's
    /// stream has nothing to put in.
    func appendSplicingHeaders(_ data: UnsafePointer<UInt8>, _ count: Int, to buffer: inout [UInt8]) -> Bool {
        guard let session else { return false }
        let streamID =
            Int32(
                bitPattern: UInt32(data[5]) << 24 | UInt32(data[6]) << 16 | UInt32(data[7]) << 8
                    | UInt32(data[8])) & Int32.max
        let frame = HeadersFrameLayout(data, count)
        let index =
            streamID == sentHeadersStreamID && slots.holds(sentHeadersSlot, streamID: streamID)
            ? sentHeadersSlot : slot(session, streamID)
        let field = index.flatMap { slots.preEncodedField($0) }
        let plainLength = index.map { slots[$0].plainLength } ?? 0
        guard let index, field != nil || plainLength > 0 else {
            // Nothing to put in: the frame must not carry a placeholder either. Never seen; checked, not assumed.
            if let frame, carriesPlaceholder(frame.block(data)) { return failSplice(streamID) }
            return false
        }
        guard let frame, frame.endsHeaders else { return failSplice(streamID) }
        let plain = UnsafeBufferPointer(
            start: plainLength > 0 ? plainLiterals.existingRoom(index) : nil, count: plainLength)
        slots[index].plainLength = 0
        // The frame laid out on the stack and appended once (each append checks uniqueness and capacity).
        let capacity = count + (field?.encoded.count ?? 0) + plainLength
        let appended = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { spliced -> Bool in
            guard let base = spliced.baseAddress,
                let blockCount = Self.splice(
                    frame.block(data), preEncoded: field, plain: plain, into: base + frame.blockStart)
            else { return false }
            let padding = count - frame.blockEnd
            let newLength = frame.blockStart + blockCount + padding - 9
            guard newLength <= Self.minimumMaxFrameSize else { return false }
            base.update(from: data, count: frame.blockStart)
            (base + frame.blockStart + blockCount).update(from: data + frame.blockEnd, count: padding)
            base[0] = UInt8(truncatingIfNeeded: newLength >> 16)
            base[1] = UInt8(truncatingIfNeeded: newLength >> 8)
            base[2] = UInt8(truncatingIfNeeded: newLength)
            buffer.append(contentsOf: UnsafeBufferPointer(start: base, count: 9 + newLength))
            return true
        }
        return appended || failSplice(streamID)
    }

    /// Whether a frame with nothing to put in holds a placeholder. (A block split over frames does
    /// not parse to its end: the walk stops there.)
    private func carriesPlaceholder(_ block: UnsafeBufferPointer<UInt8>) -> Bool {
        if let known = lastPreEncodedField, Self.representation(known.placeholderBytes, in: block) != nil {
            return true
        }
        return Self.hasPlainPlaceholder(block)
    }

    /// Whether `block` has a never-indexed literal whose value is the plain values' placeholder,
    /// among the representations before any that does not parse.
    static func hasPlainPlaceholder(_ block: UnsafeBufferPointer<UInt8>) -> Bool {
        var read = 0
        while read < block.count {
            let first = block[read]
            if first & 0x80 != 0 || first & 0xE0 == 0x20 {  // indexed field, dynamic table size update
                guard skipInteger(block, &read, prefixBits: first & 0x80 != 0 ? 7 : 5) else { return false }
                continue
            }
            guard let nameIndex = readInteger(block, &read, prefixBits: first & 0x40 != 0 ? 6 : 4),
                nameIndex != 0 || skipString(block, &read)
            else { return false }
            if first & 0xF0 == 0x10, block.count - read >= 2, block[read] == plainPlaceholderString.0,
                block[read + 1] == plainPlaceholderString.1
            {
                return true
            }
            guard skipString(block, &read) else { return false }
        }
        return false
    }

    /// Writes `block` to `out`, with `preEncoded`'s representation in place of its placeholder's
    /// and the string literals in `plain`, in order, in place of the placeholder values. Returns
    /// the bytes written (at most `block.count` plus those of `preEncoded` and `plain`), or nil
    /// when the block does not parse or its placeholders and what goes in for them do not pair up.
    static func splice(
        _ block: UnsafeBufferPointer<UInt8>, preEncoded: HPACKPreEncodedField?, plain: UnsafeBufferPointer<UInt8>,
        into out: UnsafeMutablePointer<UInt8>
    ) -> Int? {
        guard let bytes = block.baseAddress else { return preEncoded == nil && plain.isEmpty ? 0 : nil }
        var read = 0
        var copied = 0
        var written = 0
        var plainRead = 0
        var preEncodedPending = preEncoded != nil
        while read < block.count {
            let first = bytes[read]
            if first & 0x80 != 0 {  // indexed field
                guard skipInteger(block, &read, prefixBits: 7) else { return nil }
                continue
            }
            if first & 0xE0 == 0x20 {  // dynamic table size update
                guard skipInteger(block, &read, prefixBits: 5) else { return nil }
                continue
            }
            // A literal: with incremental indexing (01), without (0000) or never indexed (0001).
            let neverIndexed = first & 0xF0 == 0x10
            if neverIndexed, preEncodedPending, let preEncoded,
                starts(block, at: read, with: preEncoded.placeholderBytes)
            {
                (out + written).update(from: bytes + copied, count: read - copied)
                written += read - copied
                let encoded = preEncoded.encodedBytes
                if let source = encoded.baseAddress { (out + written).update(from: source, count: encoded.count) }
                written += encoded.count
                read += preEncoded.placeholderBytes.count
                copied = read
                preEncodedPending = false
                continue
            }
            guard let nameIndex = readInteger(block, &read, prefixBits: first & 0x40 != 0 ? 6 : 4) else {
                return nil
            }
            if nameIndex == 0 {
                guard skipString(block, &read) else { return nil }
            }
            if neverIndexed, block.count - read >= 2, bytes[read] == plainPlaceholderString.0,
                bytes[read + 1] == plainPlaceholderString.1
            {
                guard let literal = literalCount(plain, at: plainRead), let source = plain.baseAddress else {
                    return nil
                }
                (out + written).update(from: bytes + copied, count: read - copied)
                written += read - copied
                (out + written).update(from: source + plainRead, count: literal)
                written += literal
                plainRead += literal
                read += 2
                copied = read
                continue
            }
            guard skipString(block, &read) else { return nil }
        }
        (out + written).update(from: bytes + copied, count: block.count - copied)
        written += block.count - copied
        guard !preEncodedPending, plainRead == plain.count else { return nil }
        return written
    }

    /// The size of the string literal at `offset` in `literals` (its length's bytes and its own),
    /// nil when there is none.
    private static func literalCount(_ literals: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int? {
        guard offset < literals.count else { return nil }
        var end = offset
        guard skipString(literals, &end) else { return nil }
        return end - offset
    }

    /// Where a HEADERS frame's header block lies, for a chunk that is exactly one frame.
    struct HeadersFrameLayout {
        /// The frame's payload length.
        let length: Int
        let endsHeaders: Bool
        /// The header block: past the pad length and priority fields, before the padding.
        let blockStart: Int
        let blockEnd: Int

        /// Nil unless the `count` bytes at `data` are one whole frame whose padding fits.
        init?(_ data: UnsafePointer<UInt8>, _ count: Int) {
            guard count > 9 else { return nil }
            length = Int(data[0]) << 16 | Int(data[1]) << 8 | Int(data[2])
            let flags = data[4]
            let padded = flags & UInt8(NGHTTP2_FLAG_PADDED.rawValue) != 0
            endsHeaders = flags & UInt8(NGHTTP2_FLAG_END_HEADERS.rawValue) != 0
            blockStart = 9 + (padded ? 1 : 0) + (flags & UInt8(NGHTTP2_FLAG_PRIORITY.rawValue) != 0 ? 5 : 0)
            blockEnd = 9 + length - (padded ? Int(data[9]) : 0)
            guard count == 9 + length, blockStart <= blockEnd else { return nil }
        }

        func block(_ data: UnsafePointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: data + blockStart, count: blockEnd - blockStart)
        }
    }

    /// The session fails rather than send a placeholder; the frame is dropped.
    private func failSplice(_ streamID: Int32) -> Bool {
        fail(
            HTTP2Error(
                .invalidArgument(
                    "HEADERS of stream \(streamID): its pre-encoded field cannot be put in (the block is split, "
                        + "too large, or the placeholder was not where nghttp2 should have written it)")),
            fatal: true)
        return true
    }

    /// The offset in `block` of the representation equal to `wanted`, walking representation by
    /// representation; nil if there is none or the block does not parse.
    static func representation(_ wanted: UnsafeBufferPointer<UInt8>, in block: UnsafeBufferPointer<UInt8>) -> Int? {
        var offset = 0
        while offset < block.count {
            let first = block[offset]
            if first & 0x80 != 0 {  // indexed field
                guard skipInteger(block, &offset, prefixBits: 7) else { return nil }
            } else if first & 0xE0 == 0x20 {  // dynamic table size update
                guard skipInteger(block, &offset, prefixBits: 5) else { return nil }
            } else {  // literal: with incremental indexing (01), without (0000) or never indexed (0001)
                if first & 0xF0 == 0x10, starts(block, at: offset, with: wanted) { return offset }
                guard let nameIndex = readInteger(block, &offset, prefixBits: first & 0x40 != 0 ? 6 : 4) else {
                    return nil
                }
                if nameIndex == 0 {
                    guard skipString(block, &offset) else { return nil }
                }
                guard skipString(block, &offset) else { return nil }
            }
        }
        return nil
    }

    private static func starts(
        _ block: UnsafeBufferPointer<UInt8>, at offset: Int, with wanted: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard block.count - offset >= wanted.count else { return false }
        for index in 0..<wanted.count where block[offset + index] != wanted[index] {
            return false
        }
        return true
    }

    /// An HPACK integer (RFC 7541 section 5.1) whose prefix is the low `prefixBits` of the byte at
    /// `offset`; moves `offset` past it.
    @inline(__always)
    static func readInteger(_ block: UnsafeBufferPointer<UInt8>, _ offset: inout Int, prefixBits: Int) -> Int? {
        let mask = (1 << prefixBits) - 1
        var value = Int(block[offset]) & mask
        offset += 1
        guard value == mask else { return value }
        var shift = 0
        while offset < block.count, shift <= 28 {
            let byte = block[offset]
            offset += 1
            value += Int(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }

    @inline(__always)
    static func skipInteger(_ block: UnsafeBufferPointer<UInt8>, _ offset: inout Int, prefixBits: Int) -> Bool {
        readInteger(block, &offset, prefixBits: prefixBits) != nil
    }

    /// Skips a string literal (its Huffman flag, length and bytes).
    @inline(__always)
    static func skipString(_ block: UnsafeBufferPointer<UInt8>, _ offset: inout Int) -> Bool {
        guard offset < block.count, let length = readInteger(block, &offset, prefixBits: 7),
            length <= block.count - offset
        else { return false }
        offset += length
        return true
    }
}
