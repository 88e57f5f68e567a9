import HTTP2
import Testing

@Suite("HTTP/2 session: header blocks", .timeLimit(.minutes(1)))
struct SessionHeaderTests {
    @Test("a block puts pseudo-headers first; block and buffer merge with all pseudo-headers first")
    func ordering() throws {
        let block = try HTTP2HeaderBlock([
            HTTP2Header("apns-topic", "com.example"), HTTP2Header(":method", "POST"), HTTP2Header(":scheme", "https"),
        ])
        #expect(block.headers.map(\.nameString) == [":method", ":scheme", "apns-topic"])
        var buffer = HTTP2HeaderBuffer()
        buffer.append("apns-id", "abc", neverIndex: true)
        buffer.append(":path", "/3/device/1", neverIndex: true)
        buffer.append(":authority", "api.push.example")

        let pair = try SessionPair()
        pair.serverEvents.respond = ServerRecorder.echo
        try pair.client.submitRequest(headers: block, extraHeaders: buffer, body: nil, token: 1)
        try pair.pump()
        let request = try #require(pair.serverEvents.requests.first)
        #expect(
            request.headers.map(\.nameString) == [":method", ":scheme", ":path", ":authority", "apns-topic", "apns-id"])
        #expect(request.headers.value(for: "apns-id") == "abc")
        #expect(request.headers.values(for: ":path") == ["/3/device/1"])
        #expect(pair.clientEvents.responses[1]?.status == 200)
    }

    @Test("never-indexed headers cost their full size on every request; indexed ones shrink to an index")
    func neverIndex() throws {
        // nghttp2 never indexes :path by itself, so a custom header shows the difference.
        let collapseID = String(repeating: "ab", count: 32)
        func secondHeadersSize(neverIndex: Bool) throws -> Int {
            let pair = try SessionPair()
            let block = try HTTP2HeaderBlock([
                HTTP2Header(":method", "POST"), HTTP2Header(":scheme", "https"),
                HTTP2Header(":authority", "api.push.example"), HTTP2Header(":path", "/3/device/1"),
                HTTP2Header("apns-collapse-id", collapseID, neverIndex: neverIndex),
            ])
            for token in UInt64(1)...2 {
                try pair.client.submitRequest(headers: block, body: nil, token: token)
            }
            try pair.pump()
            return try #require(pair.clientFrames.headerBlockSizes.last)
        }
        let indexed = try secondHeadersSize(neverIndex: false)
        let literal = try secondHeadersSize(neverIndex: true)
        #expect(literal - indexed > collapseID.utf8.count / 2)  // a Huffman-coded literal, every time
    }

    @Test("a reused buffer sends what it holds now, and blocks outlive the caller's reference")
    func reuse() throws {
        let pair = try SessionPair(server: HTTP2SessionConfiguration(maxConcurrentStreams: 1))
        pair.serverEvents.respond = ServerRecorder.echo
        try pair.pump()
        var buffer = HTTP2HeaderBuffer()
        for token in UInt64(1)...5 {
            // A fresh block each time, dropped at once: the queued requests must keep it alive.
            let block = try HTTP2HeaderBlock([
                HTTP2Header(":method", "POST"), HTTP2Header(":scheme", "https"),
                HTTP2Header(":authority", "api.push.example"), HTTP2Header("x-token", "\(token)"),
            ])
            buffer.removeAll()
            buffer.append(":path", "/\(token)")
            try pair.client.submitRequest(headers: block, extraHeaders: buffer, body: nil, token: token)
        }
        try pair.pump()
        for request in pair.serverEvents.requests {
            #expect(request.path == "/" + (request.headers.value(for: "x-token") ?? "?"))
        }
        #expect(pair.clientEvents.responses.count == 5)
    }

    @Test("received headers look up by name without allocating per field")
    func receivedHeaders() {
        let headers = HTTP2ReceivedHeaders([
            HTTP2Header(":status", "200"), HTTP2Header("apns-id", "A"), HTTP2Header("x", "1"), HTTP2Header("x", "2"),
        ])
        #expect(headers.count == 4)
        #expect(headers.value(for: "apns-id") == "A")
        #expect(headers.valueBytes(for: "apns-id").map(Array.init) == [UInt8(ascii: "A")])
        #expect(headers.values(for: "x") == ["1", "2"])
        #expect(headers.value(for: "missing") == nil)
        #expect(headers[1] == HTTP2Header("apns-id", "A"))
    }

    @Test("the layout view gives each field's start, name length and value length, pseudo-headers first")
    func receivedHeadersLayout() {
        let headers = HTTP2ReceivedHeaders([
            HTTP2Header(":method", "POST"), HTTP2Header(":path", "/3/device/ab"), HTTP2Header("apns-topic", "com.x"),
            HTTP2Header("x-empty", ""),
        ])
        #expect(headers.pseudoHeaderCount == 2)
        let fields: [(String, String)] = headers.withUnsafeLayout { storage, layout in
            #expect(layout.count == 12)
            return (0..<layout.count / 3).map { index in
                let start = Int(layout[3 * index])
                let nameEnd = start + Int(layout[3 * index + 1])
                let valueEnd = nameEnd + Int(layout[3 * index + 2])
                return (
                    String(decoding: storage[start..<nameEnd], as: UTF8.self),
                    String(decoding: storage[nameEnd..<valueEnd], as: UTF8.self)
                )
            }
        }
        #expect(fields.map(\.0) == [":method", ":path", "apns-topic", "x-empty"])
        #expect(fields.map(\.1) == ["POST", "/3/device/ab", "com.x", ""])
    }

    @Test("a value replaced in place keeps the field's shape; a different length changes nothing")
    func replaceValueInPlace() {
        var buffer = HTTP2HeaderBuffer()
        buffer.append("apns-id", "aaaa")
        buffer.append("apns-unique-id", "bbbb", neverIndex: true)
        let copy = buffer
        #expect(Array("cccc".utf8).withUnsafeBytes { buffer.replaceValue(at: 1, with: $0) })
        #expect(!Array("ddd".utf8).withUnsafeBytes { buffer.replaceValue(at: 0, with: $0) })
        #expect(!Array("dddd".utf8).withUnsafeBytes { buffer.replaceValue(at: 2, with: $0) })
        #expect(buffer.headers == [HTTP2Header("apns-id", "aaaa"), HTTP2Header("apns-unique-id", "cccc", neverIndex: true)])
        #expect(copy.headers[1] == HTTP2Header("apns-unique-id", "bbbb", neverIndex: true), "a copy keeps its value")
    }
}
