import HTTP2
import Testing

@Suite("HTTP/2 session: garbage input", .timeLimit(.minutes(1)))
struct SessionGarbageTests {
    static func feed(_ bytes: [UInt8], to receive: (UnsafeRawBufferPointer) throws(HTTP2Error) -> Void) -> HTTP2Error? {
        bytes.withUnsafeBytes { raw in
            do throws(HTTP2Error) {
                try receive(raw)
                return nil
            } catch {
                return error
            }
        }
    }

    @Test("a server given a bad connection preface throws and takes no more input")
    func badPreface() throws {
        let server = try HTTP2ServerSession()
        let error = try #require(Self.feed(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8), to: server.receive))
        guard case .library(let function, _, let message) = error.kind else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(function == "nghttp2_session_mem_recv")
        #expect(message.lowercased().contains("magic"))
        #expect(!server.wantsRead)
        #expect(Self.feed([0, 0, 0], to: server.receive) != nil)
    }

    @Test("a client given garbage instead of SETTINGS reports a connection error and queues GOAWAY")
    func clientGarbage() throws {
        let client = try HTTP2ClientSession()
        let recorder = ClientRecorder()
        client.delegate = recorder
        try client.submitRequest(headers: requestHeaders(path: "/1"), body: nil, token: 1)
        var output: [UInt8] = []
        client.produceOutput(into: &output)
        let error = try #require(Self.feed(Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8), to: client.receive))
        #expect(error.kind == .connectionError(code: .protocolError, reason: "SETTINGS expected"))
        #expect(client.failure == error)

        output.removeAll()
        client.produceOutput(into: &output)
        var frames = FrameTally(clientSide: false)
        frames.feed(output)
        #expect(frames.count(.goAway) == 1)
        #expect(!client.isAlive)
        client.close()
        #expect(recorder.failures[UInt64(1)]?.kind == .connectionClosed)
    }

    @Test("a frame larger than SETTINGS_MAX_FRAME_SIZE is a FRAME_SIZE_ERROR")
    func oversizedFrame() throws {
        let pair = try SessionPair()
        try pair.pump()
        let hugeFrameHeader: [UInt8] = [0xff, 0xff, 0xff, 0x0, 0x0, 0x0, 0x0, 0x0, 0x1]
        let error = try #require(Self.feed(hugeFrameHeader, to: pair.server.receive))
        guard case .connectionError(let code, _) = error.kind else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(code == .frameSizeError)
    }

    @Test("random bytes after a valid handshake never crash either side", arguments: [UInt64(1), 2, 3, 4])
    func randomBytes(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for _ in 0..<100 {
            let pair = try SessionPair()
            try pair.client.submitRequest(headers: requestHeaders(path: "/1"), body: [1], token: 1)
            try pair.pump()
            let garbage = (0..<Int.random(in: 1...600, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            _ = Self.feed(garbage, to: pair.client.receive)
            _ = Self.feed(garbage, to: pair.server.receive)
            var sink: [UInt8] = []
            pair.client.produceOutput(into: &sink)
            pair.server.produceOutput(into: &sink)
            pair.client.close()
            pair.server.close()
            #expect(pair.clientEvents.reports[1] == 1)
        }
    }

    @Test("random bytes as the very first input never crash either side")
    func randomFirstBytes() throws {
        var random = SeededRandom(seed: 99)
        for _ in 0..<200 {
            let garbage = (0..<Int.random(in: 0...300, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            let client = try HTTP2ClientSession()
            let server = try HTTP2ServerSession()
            _ = Self.feed(garbage, to: client.receive)
            _ = Self.feed(garbage, to: server.receive)
            var sink: [UInt8] = []
            client.produceOutput(into: &sink)
            server.produceOutput(into: &sink)
        }
    }
}
