import CNghttp2

// Pre-encoded fields (HPACKPreEncodedField) go into HEADERS frames as the frames leave nghttp2.
//
// nghttp2 1.52's mem_send hands out one frame per call (a header block too large for one frame
// comes as HEADERS, then each CONTINUATION, in calls of their own), so a chunk that starts with a
// HEADERS frame header is that whole frame. The frame's stream finds the slot and so the block
// its request was submitted with; the block's placeholder representation is found by walking the
// header block's representations (RFC 7541 section 6), not by searching bytes, and replaced by
// the real field's. Both are never-indexed literals, so neither dynamic table sees either, and the
// bytes sent are those nghttp2 would have written for the real field.
//
// If that cannot be done (no END_HEADERS, the placeholder not found, the frame grown past the
// 16,384 bytes every peer accepts), the session fails rather than send the placeholder.

extension NGHTTP2Session {
    /// The frame size every peer accepts (RFC 9113 section 4.2); nghttp2 splits header blocks there.
    static let minimumMaxFrameSize = 16_384

    /// Appends one mem_send chunk that starts with a HEADERS frame header to `buffer`, with its
    /// block's pre-encoded field in place of the placeholder. Returns false, appending nothing,
    /// when the frame's request was not submitted with a pre-encoded field.
    func appendSplicingHeaders(_ data: UnsafePointer<UInt8>, _ count: Int, to buffer: inout [UInt8]) -> Bool {
        guard let session else { return false }
        let streamID =
            Int32(
                bitPattern: UInt32(data[5]) << 24 | UInt32(data[6]) << 16 | UInt32(data[7]) << 8
                    | UInt32(data[8])) & Int32.max
        let frame = HeadersFrameLayout(data, count)
        guard let index = slot(session, streamID), let field = slots.preEncodedField(index) else {
            // Nothing to put in (the stream's request had the real field, or no pre-encoded one):
            // the frame must not carry a placeholder either. Never seen; checked, not assumed.
            if let known = lastPreEncodedField, let frame,
                Self.representation(known.placeholderBytes, in: frame.block(data)) != nil
            {
                return failSplice(streamID)
            }
            return false
        }
        let placeholder = field.placeholderBytes
        let encoded = field.encodedBytes
        guard let frame, frame.endsHeaders else { return failSplice(streamID) }
        let newLength = frame.length - placeholder.count + encoded.count
        guard newLength <= Self.minimumMaxFrameSize, let at = Self.representation(placeholder, in: frame.block(data))
        else { return failSplice(streamID) }
        // The frame laid out on the stack and appended once (each append checks uniqueness and capacity).
        let placeholderStart = frame.blockStart + at
        let rest = placeholderStart + placeholder.count
        let appended = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 9 + newLength) { spliced -> Bool in
            guard let base = spliced.baseAddress, let encodedBase = encoded.baseAddress else { return false }
            base.update(from: data, count: placeholderStart)
            base[0] = UInt8(truncatingIfNeeded: newLength >> 16)
            base[1] = UInt8(truncatingIfNeeded: newLength >> 8)
            base[2] = UInt8(truncatingIfNeeded: newLength)
            (base + placeholderStart).update(from: encodedBase, count: encoded.count)
            (base + placeholderStart + encoded.count).update(from: data + rest, count: count - rest)
            buffer.append(contentsOf: UnsafeBufferPointer(spliced))
            return true
        }
        return appended || failSplice(streamID)
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

    static func skipInteger(_ block: UnsafeBufferPointer<UInt8>, _ offset: inout Int, prefixBits: Int) -> Bool {
        readInteger(block, &offset, prefixBits: prefixBits) != nil
    }

    /// Skips a string literal (its Huffman flag, length and bytes).
    static func skipString(_ block: UnsafeBufferPointer<UInt8>, _ offset: inout Int) -> Bool {
        guard offset < block.count, let length = readInteger(block, &offset, prefixBits: 7),
            length <= block.count - offset
        else { return false }
        offset += length
        return true
    }
}
