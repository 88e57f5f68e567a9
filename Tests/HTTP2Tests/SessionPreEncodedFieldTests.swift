import Testing

@testable import HTTP2

// A block's pre-encoded field (HTTP2HeaderBlock's `preEncoding`) must leave the wire exactly as
// nghttp2 would have written it: the same bytes, the peer seeing the real value.

@Suite("HTTP/2 session: pre-encoded header fields", .timeLimit(.minutes(1)))
struct SessionPreEncodedFieldTests {
    /// A provider-token-like value: base64url parts, about the size of an APNs JWT.
    static func bearer(_ seed: UInt64) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var random = SeededRandom(seed: seed)
        let parts = [36, 72, 86].map { count in
            String((0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
        }
        return "bearer " + parts.joined(separator: ".")
    }

    static func block(authorization: String, preEncoding: String?) throws -> HTTP2HeaderBlock {
        try HTTP2HeaderBlock(
            [
                HTTP2Header(":method", "POST"), HTTP2Header(":scheme", "https"),
                HTTP2Header(":authority", "api.push.example"), HTTP2Header("authorization", authorization),
                HTTP2Header("apns-topic", "com.example.app"),
            ], preEncoding: preEncoding)
    }

    /// Sends five requests (a token change after three) and returns the client's bytes and the
    /// `authorization` values and paths the server saw.
    static func exchange(preEncoding: String?) throws -> (bytes: [UInt8], seen: [String], paths: [String]) {
        let pair = try SessionPair()
        pair.serverEvents.respond = ServerRecorder.echo
        let first = try block(authorization: bearer(1), preEncoding: preEncoding)
        let second = try block(authorization: bearer(2), preEncoding: preEncoding)
        for token in UInt64(1)...5 {
            var buffer = HTTP2HeaderBuffer()
            buffer.append(":path", "/3/device/\(token)", neverIndex: true)
            buffer.append("apns-id", "123e4567-e89b-12d3-a456-42665544000\(token)", neverIndex: true)
            try pair.client.submitRequest(
                headers: token <= 3 ? first : second, extraHeaders: buffer, body: [1], token: token)
            if token == 2 { try pair.pump() }
        }
        try pair.pump()
        #expect(pair.clientEvents.responses.count == 5)
        let requests = pair.serverEvents.requests
        return (
            pair.clientBytes, requests.compactMap { $0.headers.value(for: "authorization") },
            requests.compactMap(\.path)
        )
    }

    /// Found by review: a pre-encoded block used for a response (servers never splice) sent the
    /// placeholder "~"; a response is given the real field.
    @Test func aPreEncodedBlockInAResponseSendsTheRealValue() throws {
        let pair = try SessionPair()
        let block = try HTTP2HeaderBlock(
            [HTTP2Header("authorization", "bearer real-value")], preEncoding: "authorization")
        #expect(block.preEncoded != nil)
        pair.serverEvents.respond = { session, request in
            try session.submitResponse(streamID: request.streamID, status: 200, headerBlock: block, body: [1])
        }
        var path = HTTP2HeaderBuffer()
        path.append(":path", "/3/device/1", neverIndex: true)
        try pair.client.submitRequest(
            headers: try Self.block(authorization: "bearer x", preEncoding: nil), extraHeaders: path, body: [1],
            token: 1)
        try pair.pump()
        #expect(pair.serverEvents.respondErrors.isEmpty, "\(pair.serverEvents.respondErrors)")
        #expect(pair.clientEvents.failures.isEmpty, "\(pair.clientEvents.failures)")
        let response = try #require(pair.clientEvents.responses[1])
        #expect(response.headers.value(for: "authorization") == "bearer real-value")
    }

    /// The nghttp2 linked here hands out one whole frame per mem_send call, so fields are
    /// pre-encoded (were the check false, every field would be sent as nghttp2 encodes it, and
    /// the splice tests below would compare nothing spliced).
    @Test func theLinkedLibraryPassesTheSpliceCheck() {
        #expect(HPACKPreEncodedField.checkLibrary())
        #expect(HPACKPreEncodedField.libraryHandsOutWholeFrames)
        #expect(HPACKPreEncodedField.make(HTTP2Header("authorization", "bearer abc.def.ghi")) != nil)
    }

    @Test(
        "the bytes sent are those nghttp2 writes for the real field; fields nghttp2 would index are sent as usual",
        arguments: ["authorization", "apns-topic", "x-absent"])
    func sameBytes(name: String) throws {
        let plain = try Self.exchange(preEncoding: nil)
        let preEncoded = try Self.exchange(preEncoding: name)
        #expect(preEncoded.bytes == plain.bytes)
        #expect(preEncoded.seen == [1, 1, 1, 2, 2].map(Self.bearer))
        #expect(preEncoded.paths == (1...5).map { "/3/device/\($0)" })
    }

    @Test("only a never-indexed field within the size bound is pre-encoded")
    func whichFields() throws {
        #expect(try Self.block(authorization: Self.bearer(1), preEncoding: "authorization").preEncoded != nil)
        #expect(try Self.block(authorization: Self.bearer(1), preEncoding: "apns-topic").preEncoded == nil)
        let long = String(repeating: "~", count: HPACKPreEncodedField.maximumEncodedCount)
        #expect(try Self.block(authorization: long, preEncoding: "authorization").preEncoded == nil)
        let field = try #require(HPACKPreEncodedField.make(HTTP2Header("authorization", Self.bearer(1))))
        // Never-indexed, name 23 of the static table, Huffman-coded value; the placeholder raw.
        #expect(field.encoded.prefix(2) == [0x1F, 0x08] && field.encoded[2] & 0x80 != 0)
        #expect(field.placeholder == [0x1F, 0x08, 0x01, UInt8(ascii: "~")])
    }

    @Test(
        "the walk finds a representation only where one starts",
        arguments: [
            // indexed (0x82), size update (0x3F 0xE1 0x1F), the placeholder
            ([0x82, 0x3F, 0xE1, 0x1F, 0x1F, 0x08, 0x01, 0x7E], 4),
            // a literal whose value holds the placeholder's bytes, then the placeholder
            ([0x10, 0x01, 0x61, 0x04, 0x1F, 0x08, 0x01, 0x7E, 0x1F, 0x08, 0x01, 0x7E], 8),
            // the placeholder's bytes only inside a value
            ([0x0F, 0x08, 0x04, 0x1F, 0x08, 0x01, 0x7E], nil),
            // cut short
            ([0x1F, 0x08, 0x05, 0x7E], nil),
        ] as [([UInt8], Int?)])
    func walk(block: [UInt8], expected: Int?) {
        let wanted: [UInt8] = [0x1F, 0x08, 0x01, 0x7E]
        let found = block.withUnsafeBufferPointer { block in
            wanted.withUnsafeBufferPointer { NGHTTP2Session.representation($0, in: block) }
        }
        #expect(found == expected)
    }
}

extension SessionPreEncodedFieldTests {
    @Test("a request whose header block may be split is sent by nghttp2 as a whole, the real field included")
    func splitBlock() throws {
        let pair = try SessionPair(server: HTTP2SessionConfiguration(maxHeaderListSize: 1 << 20))
        pair.serverEvents.respond = ServerRecorder.echo
        try pair.pump()
        let block = try Self.block(authorization: Self.bearer(1), preEncoding: "authorization")
        for (token, size) in [(UInt64(1), 40_000), (2, 10)] {
            var buffer = HTTP2HeaderBuffer()
            buffer.append(":path", "/3/device/\(token)", neverIndex: true)
            buffer.append("x-large", String(repeating: "v", count: size), neverIndex: true)
            try pair.client.submitRequest(headers: block, extraHeaders: buffer, body: nil, token: token)
        }
        try pair.pump()
        #expect(pair.clientEvents.responses.count == 2)
        #expect(
            pair.serverEvents.requests.compactMap { $0.headers.value(for: "authorization") } == [
                Self.bearer(1), Self.bearer(1),
            ])
        #expect(pair.serverEvents.requests.compactMap(\.path) == ["/3/device/1", "/3/device/2"])
    }
}
