import Testing

@testable import HTTP2

// A server decodes a client's provider token once per connection (NGHTTP2Session+RepeatedAuthorization):
// every request must still reach the handler with exactly the fields the client sent, however the
// bytes are cut into receives and whatever the token does.

@Suite("HTTP/2 session: a repeated provider token", .timeLimit(.minutes(1)))
struct SessionRepeatedAuthorizationTests {
    static let bearer = SessionPreEncodedFieldTests.bearer

    /// The client's bytes for requests with these `authorization` values (nil: none), in order,
    /// each with a path naming it and the topic that nghttp2 indexes.
    static func clientBytes(_ tokens: [[String]], preEncoded: Bool = false) throws -> [UInt8] {
        let pair = try SessionPair()
        for (number, values) in tokens.enumerated() {
            let fields =
                [
                    HTTP2Header(":method", "POST"), HTTP2Header(":scheme", "https"),
                    HTTP2Header(":authority", "a.example"),
                ]
                + values.map { HTTP2Header("authorization", $0) } + [HTTP2Header("apns-topic", "com.example.app")]
            let block = try HTTP2HeaderBlock(fields, preEncoding: preEncoded ? "authorization" : nil)
            var path = HTTP2HeaderBuffer()
            path.append(":path", "/3/device/\(number)", neverIndex: true)
            try pair.client.submitRequest(headers: block, extraHeaders: path, body: [1], token: UInt64(number))
        }
        var bytes: [UInt8] = []
        pair.client.produceOutput(into: &bytes)
        return bytes
    }

    /// Feeds `bytes` to a fresh server session in pieces of the sizes `cut` gives; returns the
    /// requests' paths and `authorization` values, and how many frames got the remembered value.
    static func serve(_ bytes: [UInt8], cut: (Int) -> Int) throws -> (requests: [[String]], substituted: Int) {
        let server = try HTTP2ServerSession(configuration: HTTP2SessionConfiguration())
        let recorder = ServerRecorder()
        server.delegate = recorder
        var offset = 0
        var piece = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + max(1, cut(piece)))
            var failure: HTTP2Error?
            Array(bytes[offset..<end]).withUnsafeBytes { raw in
                do throws(HTTP2Error) {
                    try server.receive(raw)
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            offset = end
            piece += 1
        }
        let requests = recorder.requests.map { request in
            [request.path ?? "?"] + request.headers.values(for: "authorization")
        }
        return (requests, server.engine.repeated.substituted)
    }

    static func expected(_ tokens: [[String]]) -> [[String]] {
        tokens.enumerated().map { ["/3/device/\($0.offset)"] + $0.element }
    }

    @Test("the same token in every request: decoded once, every request sees it")
    func sameToken() throws {
        let tokens = Array(repeating: [Self.bearer(1)], count: 6)
        for preEncoded in [false, true] {
            let served = try Self.serve(try Self.clientBytes(tokens, preEncoded: preEncoded)) { _ in .max }
            #expect(served.requests == Self.expected(tokens))
            #expect(served.substituted == 5)  // all but the first
        }
    }

    @Test("tokens that change, come twice in a block, or are missing reach the handler as sent")
    func changingTokens() throws {
        let one = Self.bearer(1)
        let two = Self.bearer(2)
        let tokens = [[one], [one], [two], [two], [], [one], [one, one], [two, one], ["bearer short"], [one]]
        let served = try Self.serve(try Self.clientBytes(tokens)) { _ in .max }
        #expect(served.requests == Self.expected(tokens))
        #expect(served.substituted > 0)
    }

    @Test("cut into pieces of every size from 1 to 40 bytes, and at random", arguments: Array(1...41))
    func pieces(size: Int) throws {
        let tokens = [[Self.bearer(1)], [Self.bearer(1)], [Self.bearer(3)], [Self.bearer(3)], [Self.bearer(1)]]
        let bytes = try Self.clientBytes(tokens)
        var random = SeededRandom(seed: UInt64(size))
        let served = try Self.serve(bytes) { _ in size <= 40 ? size : Int(random.next() % 400) }
        #expect(served.requests == Self.expected(tokens))
    }

    /// A token that breaks the field rules is refused each time: never remembered, never passed on.
    /// (Sent as raw frames: a client session refuses to send such a value.)
    @Test func anInvalidTokenIsRefusedEveryTime() throws {
        let bad = Array((Self.bearer(1) + "\u{1}").utf8)
        let good = Array(Self.bearer(2).utf8)
        var bytes = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + [0, 0, 0, 4, 0, 0, 0, 0, 0]  // preface, SETTINGS
        for (number, token) in [bad, bad, good, good, bad].enumerated() {
            let path = Array("/3/device/\(number)".utf8)
            let authorization = try #require(
                HPACKPreEncodedField.neverIndexed(name: Array("authorization".utf8), value: token, flags: 0))
            #expect(authorization[2] & 0x80 != 0)  // Huffman-coded, as nghttp2 sends it
            // :method POST, :scheme https (indexed), :authority "a", :path (literals without indexing)
            let block = [0x83, 0x87, 0x01, 0x01, UInt8(ascii: "a"), 0x04, UInt8(path.count)] + path + authorization
            let stream = UInt8(2 * number + 1)
            bytes += [0, 0, UInt8(block.count), 0x01, 0x05, 0, 0, 0, stream] + block  // HEADERS, END_STREAM|END_HEADERS
        }
        let served = try Self.serve(bytes) { _ in .max }
        #expect(served.requests == [["/3/device/2", Self.bearer(2)], ["/3/device/3", Self.bearer(2)]])
        #expect(served.substituted == 1)
    }
}
