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

    @Test("reads straight into the room: unread bytes move to the front, a burst's memory is given back")
    func receivesIntoItsRoom() {
        let buffers = CiphertextBuffers()
        var sent: [UInt8] = []
        var read: [UInt8] = []
        var next: UInt8 = 0
        var random = SeededRandom(seed: 7)
        for _ in 0..<200 {
            // A read of up to `room` bytes that fills only part of it, as a socket read does.
            let room = Int(random.next() % 2000) + 1
            let filled = Int(random.next() % UInt64(room + 1))
            buffers.receive(upTo: room) { (space: UnsafeMutableRawBufferPointer) -> Int in
                #expect(space.count == room)
                for index in 0..<filled {
                    space[index] = next
                    sent.append(next)
                    next &+= 1
                }
                return filled
            }
            var chunk = [UInt8](repeating: 0, count: Int(random.next() % 1500))
            let count = chunk.withUnsafeMutableBytes { bytes in
                bytes.baseAddress.map { buffers.read(into: $0, count: bytes.count) } ?? 0
            }
            read += chunk[..<count]
        }
        var rest = [UInt8](repeating: 0, count: buffers.incomingCount)
        _ = rest.withUnsafeMutableBytes { bytes in bytes.baseAddress.map { buffers.read(into: $0, count: bytes.count) }
        }
        #expect(read + rest == sent)
        // Room never grows past what is unread plus what is asked for.
        #expect(buffers.incoming.count <= 2000 + 2000)

        buffers.receive(upTo: 1_000_000) { _ in 1_000_000 }
        #expect(buffers.incoming.count >= 1_000_000)
        var sink = [UInt8](repeating: 0, count: 1_000_000)
        _ = sink.withUnsafeMutableBytes { bytes in bytes.baseAddress.map { buffers.read(into: $0, count: bytes.count) }
        }
        buffers.receive(upTo: 100) { _ in 0 }
        #expect(buffers.incoming.count == 100)
    }
}
