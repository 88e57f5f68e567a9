import Testing

@testable import HTTP2

// `HTTP2SessionConfiguration.plainNamesIndexedOnce`: a client sends the first plain-value field of
// such a name as an ordinary indexed field, so that every later one names the field by its index
// in the HPACK tables instead of carrying the name as a literal.

@Suite("HTTP/2 session: plain values named by index", .timeLimit(.minutes(1)))
struct SessionPlainNameIndexTests {
    typealias Literal = SessionPlainValueTests.Literal

    static let ids = (10..<16).map { "123e4567-e89b-12d3-a456-4266554400\($0)" }

    /// Sends one request per id (`:path` and `apns-id` plain) on a client with `indexedOnce`.
    static func exchange(indexedOnce: [String]?) throws -> SessionPair {
        var configuration = HTTP2SessionConfiguration()
        configuration.plainNamesIndexedOnce = indexedOnce.map { HTTP2HeaderNameSet($0) }
        let pair = try SessionPair(client: configuration)
        pair.serverEvents.respond = ServerRecorder.echo
        for (token, id) in ids.enumerated() {
            var buffer = HTTP2HeaderBuffer()
            SessionPlainValueTests.append(&buffer, ":path", "/3/device/\(token)", plain: true)
            SessionPlainValueTests.append(&buffer, "apns-id", id, plain: true)
            try pair.client.submitRequest(
                headers: try SessionPlainValueTests.staticBlock(), extraHeaders: buffer, body: nil, token: UInt64(token)
            )
            if token % 2 == 1 { try pair.pump() }  // some requests leave together, others alone
        }
        try pair.pump()
        return pair
    }

    @Test func laterRequestsNameTheFieldByIndex() throws {
        let pair = try Self.exchange(indexedOnce: ["apns-id"])
        #expect(pair.clientEvents.failures.isEmpty, "\(pair.clientEvents.failures)")
        #expect(pair.serverEvents.requests.map { $0.headers.value(for: "apns-id") } == Self.ids)
        #expect(pair.serverEvents.requests.map(\.path) == Self.ids.indices.map { "/3/device/\($0)" })
        let blocks = try pair.clientFrames.headerBlocks.map { try #require(SessionPlainValueTests.literals($0)) }
        #expect(blocks.count == Self.ids.count)
        // The first request indexes `apns-id` (a literal name: no table has it yet; `:authority`,
        // indexed too, has its name in the static table).
        let first = try #require(blocks.first)
        #expect(first.contains { $0.indexed && $0.nameIndex == 0 })
        #expect(!first.contains { $0.value == [0] }, "no placeholder left")
        // Every later one: a never-indexed literal with a plain value, named by the dynamic table.
        for (index, literals) in blocks.enumerated().dropFirst() {
            let id = Array(Self.ids[index].utf8)
            #expect(
                literals.contains { $0.neverIndexed && $0.nameIndex >= 62 && !$0.valueHuffman && $0.value == id },
                "\(index): \(literals)")
            #expect(!literals.contains { $0.nameIndex == 0 }, "\(index): no literal name")
            #expect(!literals.contains { $0.indexed }, "\(index): nothing more indexed")
        }
    }

    @Test func withoutTheSettingEveryRequestCarriesTheName() throws {
        let pair = try Self.exchange(indexedOnce: nil)
        #expect(pair.serverEvents.requests.map { $0.headers.value(for: "apns-id") } == Self.ids)
        for block in pair.clientFrames.headerBlocks {
            let literals = try #require(SessionPlainValueTests.literals(block))
            #expect(literals.contains { $0.neverIndexed && $0.nameIndex == 0 && !$0.valueHuffman })
            #expect(!literals.contains { $0.indexed && $0.nameIndex == 0 })
        }
    }

    @Test func pseudoHeadersAndOtherNamesStayPlain() throws {
        let pair = try Self.exchange(indexedOnce: [":path", "x-other"])
        #expect(pair.serverEvents.requests.map { $0.headers.value(for: "apns-id") } == Self.ids)
        for block in pair.clientFrames.headerBlocks {
            let literals = try #require(SessionPlainValueTests.literals(block))
            #expect(!literals.contains { $0.indexed && $0.nameIndex == 0 })
            #expect(literals.filter { $0.neverIndexed && !$0.valueHuffman }.count == 2)
        }
    }
}
