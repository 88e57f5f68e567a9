import Testing

@testable import HTTP2

// Plain values (`HTTP2HeaderBuffer.append(..., plainValue: true)`) are written into HEADERS frames
// by the session: on the wire each must be a never-indexed literal whose value is a plain string
// (H = 0) holding exactly the value, and the peer must decode the same fields as from nghttp2's
// own encoding, whatever the value and whatever the HPACK tables hold.

@Suite("HTTP/2 session: plain header values", .timeLimit(.minutes(1)))
struct SessionPlainValueTests {
    /// A literal representation of a header block (RFC 7541 sections 6.2.1-6.2.3).
    struct Literal: Equatable {
        var neverIndexed: Bool
        /// The name's index (0: the name is a literal).
        var nameIndex: Int
        var valueHuffman: Bool
        var value: [UInt8]
        /// With incremental indexing (RFC 7541 section 6.2.1): both tables take the field.
        var indexed = false
    }

    /// The literals of `block`, in order; nil if it does not parse.
    static func literals(_ block: [UInt8]) -> [Literal]? {
        var found: [Literal] = []
        var offset = 0
        func integer(_ prefixBits: Int) -> Int? {
            guard offset < block.count else { return nil }
            let mask = (1 << prefixBits) - 1
            var value = Int(block[offset]) & mask
            offset += 1
            guard value == mask else { return value }
            var shift = 0
            while offset < block.count {
                let byte = block[offset]
                offset += 1
                value += Int(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }
        func string() -> (huffman: Bool, bytes: [UInt8])? {
            guard offset < block.count else { return nil }
            let huffman = block[offset] & 0x80 != 0
            guard let length = integer(7), length <= block.count - offset else { return nil }
            defer { offset += length }
            return (huffman, Array(block[offset..<offset + length]))
        }
        while offset < block.count {
            let first = block[offset]
            if first & 0x80 != 0 {
                guard integer(7) != nil else { return nil }
            } else if first & 0xE0 == 0x20 {
                guard integer(5) != nil else { return nil }
            } else {
                guard let nameIndex = integer(first & 0x40 != 0 ? 6 : 4) else { return nil }
                if nameIndex == 0 { guard string() != nil else { return nil } }
                guard let value = string() else { return nil }
                found.append(
                    Literal(
                        neverIndexed: first & 0xF0 == 0x10, nameIndex: nameIndex, valueHuffman: value.huffman,
                        value: value.bytes, indexed: first & 0x40 != 0))
            }
        }
        return found
    }

    /// Values that try the splice: empty, the old placeholder, a lone byte, lengths around the
    /// 7-bit prefix (126, 127, 128) and past one continuation byte, a value the static table
    /// holds, non-ASCII bytes, an id.
    static let oddValues: [String] = [
        "", "~", "a", String(repeating: "x", count: 126), String(repeating: "y", count: 127),
        String(repeating: "z", count: 128), String(repeating: "0123456789", count: 30), "gzip, deflate",
        "caf\u{E9} \u{2603}", "123e4567-e89b-12d3-a456-426655440000", "inner  spaces\tand tab",
    ]

    static func staticBlock() throws -> HTTP2HeaderBlock {
        try HTTP2HeaderBlock([
            HTTP2Header(":method", "POST"), HTTP2Header(":scheme", "https"),
            HTTP2Header(":authority", "api.push.example"),
        ])
    }

    /// Appends a field, plain or not, from strings.
    static func append(_ buffer: inout HTTP2HeaderBuffer, _ name: String, _ value: String, plain: Bool) {
        let name = Array(name.utf8)
        let value = Array(value.utf8)
        name.withUnsafeBytes { name in
            value.withUnsafeBytes { value in
                buffer.append(name: name, value: value, neverIndex: true, plainValue: plain)
            }
        }
    }

    /// One request per odd value (`:path`, `x-odd` and `apns-id` plain or not), each answered
    /// with the same values; returns the pair.
    static func exchange(plain: Bool) throws -> SessionPair {
        let pair = try SessionPair()
        let block = try staticBlock()
        pair.serverEvents.respond = { session, request in
            var answer = HTTP2HeaderBuffer()
            append(&answer, "x-odd", request.headers.value(for: "x-odd") ?? "", plain: plain)
            append(&answer, "apns-id", request.headers.value(for: "apns-id") ?? "", plain: plain)
            try session.submitResponse(
                streamID: request.streamID, status: 200, headerBlock: nil, extraHeaders: answer, body: nil)
        }
        for (index, value) in oddValues.enumerated() {
            var buffer = HTTP2HeaderBuffer()
            append(&buffer, ":path", "/3/device/\(index)", plain: plain)
            append(&buffer, "x-odd", value, plain: plain)
            append(&buffer, "apns-id", "123e4567-e89b-12d3-a456-4266554400\(10 + index)", plain: plain)
            try pair.client.submitRequest(headers: block, extraHeaders: buffer, body: nil, token: UInt64(index))
            if index % 3 == 0 { try pair.pump() }  // some answers go out alone, others several to a write
        }
        try pair.pump()
        return pair
    }

    @Test func requestsAndResponsesCarryPlainValuesExactly() throws {
        let pair = try Self.exchange(plain: true)
        let reference = try Self.exchange(plain: false)
        #expect(pair.clientEvents.failures.isEmpty, "\(pair.clientEvents.failures)")
        #expect(pair.serverEvents.respondErrors.isEmpty, "\(pair.serverEvents.respondErrors)")
        // The peer decodes the same fields as from nghttp2's own (Huffman-coding) encoding.
        #expect(
            pair.serverEvents.requests.map { Array($0.headers) }
                == reference.serverEvents.requests.map { Array($0.headers) })
        #expect(pair.serverEvents.requests.map { $0.headers.value(for: "x-odd") } == Self.oddValues)
        for (token, value) in Self.oddValues.enumerated() {
            let response = try #require(pair.clientEvents.responses[UInt64(token)])
            #expect(response.headers.value(for: "x-odd") == value)
            #expect(response.headers.value(for: "apns-id") == "123e4567-e89b-12d3-a456-4266554400\(10 + token)")
        }
        // On the wire: every field a never-indexed literal, its value plain when the values fit a
        // slot's room (others are sent as nghttp2 encodes them), in both directions.
        var spliced = 0
        for frames in [pair.clientFrames, pair.serverFrames] {
            #expect(frames.headerBlocks.count == Self.oddValues.count)
            for (index, block) in frames.headerBlocks.enumerated() {
                let literals = try #require(Self.literals(block))
                let odd = Array(Self.oddValues[index].utf8)
                let id = Array("123e4567-e89b-12d3-a456-4266554400\(10 + index)".utf8)
                let path = frames.clientSide ? "/3/device/\(index)".utf8.count + 3 : 0
                let fits = path + odd.count + 3 + id.count + 3 <= PlainLiteralRooms.roomSize
                let neverIndexed = literals.filter(\.neverIndexed)
                #expect(neverIndexed.count == (frames.clientSide ? 3 : 2))
                #expect(!literals.contains { $0.value == [0] }, "no placeholder left")
                guard fits else { continue }
                spliced += 1
                #expect(neverIndexed.allSatisfy { !$0.valueHuffman }, "\(index): \(literals)")
                #expect(neverIndexed.map(\.value).contains(odd) && neverIndexed.map(\.value).contains(id))
            }
        }
        #expect(spliced >= 14)
        // The reference Huffman-codes what it can; the plain values cost bytes, not decoding.
        let huffman = try #require(Self.literals(reference.clientFrames.headerBlocks[9]))
        #expect(huffman.contains { $0.valueHuffman })
    }

    @Test("plain values next to fields the HPACK tables hold: names by index, the tables in step")
    func alongsideIndexedFields() throws {
        let pair = try SessionPair()
        pair.serverEvents.respond = ServerRecorder.echo
        // 1: `x-same: same` indexed (both tables take it); 2: the same field plain, and `:path: /`
        // (in the static table) plain; 3: indexed again, so nghttp2 sends it by its index.
        let fields: [[(String, String, Bool)]] = [
            [(":path", "/a", false), ("x-same", "same", false)],
            [(":path", "/", true), ("x-same", "same", true), ("x-other", "same", true)],
            [(":path", "/c", false), ("x-same", "same", false)],
        ]
        for (token, request) in fields.enumerated() {
            var buffer = HTTP2HeaderBuffer()
            for (name, value, plain) in request {
                let name = Array(name.utf8)
                let value = Array(value.utf8)
                name.withUnsafeBytes { name in
                    value.withUnsafeBytes { buffer.append(name: name, value: $0, neverIndex: plain, plainValue: plain) }
                }
            }
            try pair.client.submitRequest(
                headers: try Self.staticBlock(), extraHeaders: buffer, body: nil, token: UInt64(token))
            try pair.pump()
        }
        #expect(pair.clientEvents.responses.count == 3)
        #expect(pair.serverEvents.requests.map(\.path) == ["/a", "/", "/c"])
        #expect(pair.serverEvents.requests.map { $0.headers.value(for: "x-same") } == ["same", "same", "same"])
        #expect(pair.serverEvents.requests[1].headers.value(for: "x-other") == "same")
        let second = try #require(Self.literals(pair.clientFrames.headerBlocks[1]))
        // `:path` named by the static table (4), `x-same` by the dynamic one (62 and up).
        #expect(second.contains(Literal(neverIndexed: true, nameIndex: 4, valueHuffman: false, value: [0x2F])))
        #expect(second.contains { $0.nameIndex >= 62 && $0.value == Array("same".utf8) && !$0.valueHuffman })
        // The third request's `x-same` goes by index: no literal carries it.
        let third = try #require(Self.literals(pair.clientFrames.headerBlocks[2]))
        #expect(!third.contains { $0.value == Array("same".utf8) })
    }

    @Test(
        "values past a slot's room or a block that may not fit one frame go as nghttp2 encodes them",
        arguments: [(100, true), (150, false), (16_300, false), (40_000, false)])
    func largeValues(size: Int, spliced: Bool) throws {
        let pair = try SessionPair(server: HTTP2SessionConfiguration(maxHeaderListSize: 1 << 20))
        pair.serverEvents.respond = ServerRecorder.echo
        try pair.pump()
        let large = String(repeating: "v", count: size)
        var buffer = HTTP2HeaderBuffer()
        Self.append(&buffer, ":path", "/3/device/1", plain: true)
        Self.append(&buffer, "x-large", large, plain: true)
        try pair.client.submitRequest(headers: try Self.staticBlock(), extraHeaders: buffer, body: nil, token: 1)
        try pair.pump()
        #expect(pair.clientEvents.responses.count == 1)
        #expect(pair.serverEvents.requests.first?.headers.value(for: "x-large") == large)
        #expect(pair.serverEvents.requests.first?.path == "/3/device/1")
        // The first HEADERS block, and CONTINUATION frames if it was split.
        let block = try #require(pair.clientFrames.headerBlocks.first)
        let path = Array("/3/device/1".utf8)
        #expect((Self.literals(block)?.contains { $0.value == path } ?? false) == spliced)
        #expect((pair.clientFrames.count(.continuation) > 0) == (size > 16_384))
    }

    @Test(
        "the splice pairs placeholders with values one for one",
        arguments: [
            // indexed, a size update, `:path` (static name 4) and a new name `a`, both placeholders
            (
                [0x82, 0x3F, 0xE1, 0x1F, 0x14, 0x01, 0x00, 0x10, 0x01, 0x61, 0x01, 0x00], [0x01, 0x78, 0x00],
                [0x82, 0x3F, 0xE1, 0x1F, 0x14, 0x01, 0x78, 0x10, 0x01, 0x61, 0x00]
            ),
            // a value left over
            ([0x14, 0x01, 0x00], [0x01, 0x78, 0x00], nil),
            // a placeholder with nothing to put in
            ([0x14, 0x01, 0x00, 0x10, 0x01, 0x61, 0x01, 0x00], [0x01, 0x78], nil),
            // `01 00` as a value indexed (01) or without indexing (0000), or Huffman-coded: not placeholders
            (
                [0x44, 0x01, 0x00, 0x04, 0x01, 0x00, 0x14, 0x81, 0x00], [],
                [0x44, 0x01, 0x00, 0x04, 0x01, 0x00, 0x14, 0x81, 0x00]
            ),
            // cut short
            ([0x14, 0x05, 0x00], [], nil),
        ] as [([UInt8], [UInt8], [UInt8]?)])
    func spliceWalk(block: [UInt8], plain: [UInt8], expected: [UInt8]?) {
        let out = block.withUnsafeBufferPointer { block in
            plain.withUnsafeBufferPointer { plain in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: block.count + plain.count) { out in
                    NGHTTP2Session.splice(block, preEncoded: nil, plain: plain, into: out.baseAddress!)
                        .map { Array(out[0..<$0]) }
                }
            }
        }
        #expect(out == expected)
        let placeholder = block.withUnsafeBufferPointer { NGHTTP2Session.hasPlainPlaceholder($0) }
        #expect(
            placeholder
                == (block != [0x44, 0x01, 0x00, 0x04, 0x01, 0x00, 0x14, 0x81, 0x00] && block != [0x14, 0x05, 0x00]))
    }

    @Test func plainLiteralsCountTheirLength() {
        for count in [0, 1, 126, 127, 128, 254, 255, 16_383, 16_384] {
            let value = [UInt8](repeating: 0x61, count: count)
            let source = value + [0]  // never empty, so it has an address
            var literal = [UInt8](repeating: 0xEE, count: count + 8)
            let written = source.withUnsafeBufferPointer { source in
                literal.withUnsafeMutableBufferPointer { out in
                    guard let from = source.baseAddress, let to = out.baseAddress else { return -1 }
                    return NGHTTP2Session.writePlainLiteral(from, count, to: to)
                }
            }
            #expect(written <= count + 3)
            #expect(Self.literals([0x10, 0x01, 0x61] + literal.prefix(written))?.first?.value == value, "\(count)")
        }
    }
}
