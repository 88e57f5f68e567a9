import Testing

@testable import HTTP2

@Suite("TLS ciphertext buffers", .timeLimit(.minutes(1)))
struct TLSCiphertextBuffersTests {
    @Test("received bytes are read back in order, in pieces of any size, across receives")
    func readsInOrder() {
        let buffers = CiphertextBuffers()
        let sent = (0..<300).map { UInt8(truncatingIfNeeded: $0) }
        sent[..<100].withUnsafeBytes { buffers.receive($0) }
        var read: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64)
        func readChunk() -> Int {
            let count = chunk.withUnsafeMutableBytes { bytes in
                bytes.baseAddress.map { buffers.read(into: $0, count: bytes.count) } ?? 0
            }
            read += chunk[..<count]
            return count
        }
        #expect(readChunk() == 64)
        sent[100...].withUnsafeBytes { buffers.receive($0) }
        while readChunk() > 0 {}
        #expect(read == sent)
        #expect(buffers.incomingCount == 0)
    }

    @Test("draining hands the outgoing bytes over, appending when the buffer already holds some")
    func drains() {
        let buffers = CiphertextBuffers()
        buffers.outgoing = [1, 2, 3]
        var empty: [UInt8] = []
        buffers.drain(into: &empty)
        #expect(empty == [1, 2, 3])
        #expect(buffers.outgoing.isEmpty)
        buffers.outgoing = [4, 5]
        var holding: [UInt8] = [0]
        buffers.drain(into: &holding)
        #expect(holding == [0, 4, 5])
        #expect(buffers.outgoing.isEmpty)
    }
}
