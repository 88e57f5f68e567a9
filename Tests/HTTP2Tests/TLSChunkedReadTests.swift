import HTTP2
import Keys
import Testing

@Suite("TLS plaintext read straight into a caller's buffer", .timeLimit(.minutes(1)))
struct TLSChunkedReadTests {
    @Test("a small destination is filled chunk by chunk; the last chunk is short and close_notify is seen")
    func chunkedRead() throws {
        let fixture = try TLSFixture()
        let pair = try TLSPair(client: fixture.clientConfiguration(), server: fixture.serverConfiguration)
        pair.pump()
        let sent = patternBytes(40_000)  // three records, more than fits the destination at once
        try pair.client.session.write(sent)
        pair.client.session.close()
        var wire: [UInt8] = []
        pair.client.session.drainCiphertext(into: &wire)
        wire.withUnsafeBytes { pair.server.session.receiveCiphertext($0) }

        var received: [UInt8] = []
        var destination = [UInt8](repeating: 0, count: 1000)
        var fullChunks = 0
        reading: while true {
            let status = try destination.withUnsafeMutableBytes { try pair.server.session.readPlaintext(into: $0) }
            switch status {
            case .ok(let count):
                received += destination[0..<count]
                if count == destination.count {
                    fullChunks += 1
                } else {
                    break reading
                }
            case .wantMore, .closed:
                break reading
            }
        }
        #expect(received == sent)
        #expect(fullChunks == 40)
        #expect(pair.server.session.hasReadClose)
        #expect(try destination.withUnsafeMutableBytes { try pair.server.session.readPlaintext(into: $0) } == .closed)
    }

    @Test("without close_notify, an empty read says wantMore and hasReadClose stays false")
    func wantMore() throws {
        let fixture = try TLSFixture()
        let pair = try TLSPair(client: fixture.clientConfiguration(), server: fixture.serverConfiguration)
        pair.pump()
        var destination = [UInt8](repeating: 0, count: 64)
        #expect(try destination.withUnsafeMutableBytes { try pair.server.session.readPlaintext(into: $0) } == .wantMore)
        #expect(!pair.server.session.hasReadClose)
    }
}
