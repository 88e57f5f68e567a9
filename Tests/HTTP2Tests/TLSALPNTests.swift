import Testing

@testable import HTTP2

@Suite("TLS ALPN wire format and selection", .timeLimit(.minutes(1)))
struct TLSALPNTests {
    @Test("protocol lists are length-prefixed; empty and over-long names are refused")
    func wireFormat() throws {
        #expect(try ALPN.wireFormat(["h2", "http/1.1"]) == [2] + Array("h2".utf8) + [8] + Array("http/1.1".utf8))
        #expect(try ALPN.wireFormat([]) == [])
        #expect(throws: TLSError.self) { try ALPN.wireFormat([""]) }
        #expect(throws: TLSError.self) { try ALPN.wireFormat([String(repeating: "a", count: 256)]) }
    }

    static let selections: [([String], [UInt8], String?)] = [
        (["h2"], [8] + Array("http/1.1".utf8) + [2] + Array("h2".utf8), "h2"),
        (["h2", "http/1.1"], [8] + Array("http/1.1".utf8) + [2] + Array("h2".utf8), "h2"),  // server's order wins
        (["http/1.1", "h2"], [2] + Array("h2".utf8) + [8] + Array("http/1.1".utf8), "http/1.1"),
        (["h2"], [8] + Array("http/1.1".utf8), nil),
        (["h2"], [], nil),
        (["h2"], [5] + Array("h2".utf8), nil),  // a length past the end
        (["h2"], [0, 2] + Array("h2".utf8), nil),  // a zero length stops the walk
        (["h2"], [3] + Array("h2c".utf8), nil),  // prefixes do not match
    ]

    @Test("the server picks its most preferred protocol the client offered", arguments: selections)
    func select(preference: [String], offer: [UInt8], expected: String?) {
        let chosen = offer.withUnsafeBufferPointer { buffer in
            ALPN.select(preference: preference.map { Array($0.utf8) }, offer: buffer)
                .map { String(decoding: buffer[$0], as: UTF8.self) }
        }
        #expect(chosen == expected)
    }
}
