import Testing

@testable import HTTP2

@Suite("nghttp2 allocator: per-size free lists", .timeLimit(.minutes(1)))
struct NGHTTP2AllocatorTests {
    @Test("blocks of every size class and beyond hold what is written to them", arguments: [0, 1, 63, 64, 65, 1000, 1024, 1025, 70_000])
    func sizes(size: Int) throws {
        let allocator = NGHTTP2Allocator()
        let block = try #require(allocator.allocate(size))
        #expect(Int(bitPattern: block) % 16 == 0, "16-byte aligned, as malloc's")
        block.initializeMemory(as: UInt8.self, repeating: 0xAB, count: size)
        #expect(UnsafeRawBufferPointer(start: block, count: size).allSatisfy { $0 == 0xAB })
        allocator.release(block)
    }

    @Test("a freed block is handed out again for the same size class")
    func reuse() throws {
        let allocator = NGHTTP2Allocator()
        let first = try #require(allocator.allocate(100))
        allocator.release(first)
        let second = try #require(allocator.allocate(120))  // same 128-byte class
        #expect(first == second)
        let other = try #require(allocator.allocate(200))  // another class
        #expect(other != second)
        allocator.release(second)
        allocator.release(other)
    }

    @Test("reallocating keeps the contents, in place while the block has room")
    func reallocate() throws {
        let allocator = NGHTTP2Allocator()
        let block = try #require(allocator.allocate(10))
        for index in 0..<10 { block.storeBytes(of: UInt8(index), toByteOffset: index, as: UInt8.self) }
        let same = try #require(allocator.reallocate(block, 60))
        #expect(same == block)
        let moved = try #require(allocator.reallocate(same, 5000))
        #expect((0..<10).allSatisfy { moved.load(fromByteOffset: $0, as: UInt8.self) == UInt8($0) })
        let larger = try #require(allocator.reallocate(moved, 9000))
        #expect((0..<10).allSatisfy { larger.load(fromByteOffset: $0, as: UInt8.self) == UInt8($0) })
        allocator.release(larger)
        allocator.release(nil)
    }

    @Test("a session's traffic runs through it: many requests, then close")
    func session() throws {
        let pair = try SessionPair()
        pair.serverEvents.respond = ServerRecorder.echo
        for token in UInt64(1)...300 {
            try pair.client.submitRequest(
                headers: requestHeaders(path: "/\(token)"), body: patternBody(count: 100, seed: token), token: token)
        }
        try pair.pump()
        #expect(pair.clientEvents.responses.count == 300)
        for (token, response) in pair.clientEvents.responses {
            #expect(response.body == patternBody(count: 100, seed: token))
        }
        pair.client.close()
        pair.server.close()
    }
}
