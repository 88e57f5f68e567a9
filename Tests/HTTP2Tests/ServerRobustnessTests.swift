// Clients that misbehave: garbage, silence, stalls, resets. None may crash the server or hold up
// another connection.
import Glibc
import Testing

@testable import HTTP2

/// The HTTP/2 client connection preface (RFC 9113 section 3.4).
let clientPreface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

/// The frame types in `bytes`, read as a sequence of HTTP/2 frames (a torn last frame is ignored).
func frameTypes(_ bytes: [UInt8]) -> [UInt8] {
    var types: [UInt8] = []
    var offset = 0
    while offset + 9 <= bytes.count {
        let length = Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
        types.append(bytes[offset + 3])
        offset += 9 + length
    }
    return types
}

/// Client TLS that trusts `fixture`'s CA.
func clientTLS(_ fixture: TLSFixture) throws -> TLSContext {
    try TLSContext(fixture.clientConfiguration(serverHostname: "localhost"))
}

@Suite(.timeLimit(.minutes(1)))
struct ServerRobustnessTests {
    @Test(arguments: [false, true])
    func garbageOnOneConnectionLeavesTheOthersWorking(tls: Bool) async throws {
        let (serverTLS, fixture) = try makeServerTLS()
        let client = tls ? try clientTLS(fixture) : nil
        let handler = TestHandler()
        try await withServer(handler: handler, options: ServerTestOptions(tls: tls ? serverTLS : nil)) { server in
            let port = server.port
            let statuses = try await onThread { () -> [Int] in
                let good = try ServerTestClient(port: port, tls: client)
                let before = try good.send("/before").status
                let raw = try RawTestSocket(port: port)
                try raw.write(Array("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8) + patternBytes(4096))
                _ = try raw.readUntilEndOfFile()
                raw.close()
                return [before, try good.send("/after").status]
            }
            #expect(statuses == [200, 200])
            await server.waitUntil { $0.accepted == 2 && $0.open == 0 }  // both closed, the garbage too
        }
        #expect(handler.snapshot.requests == 2)
    }

    @Test func aProtocolErrorIsAnsweredWithGoAwayBeforeTheClose() async throws {
        try await withServer { server in
            let port = server.port
            let received = try await onThread { () -> [UInt8] in
                let raw = try RawTestSocket(port: port)
                // DATA on stream 0 where SETTINGS must come: PROTOCOL_ERROR.
                try raw.write(clientPreface + [0, 0, 4, 0x0, 0x0, 0, 0, 0, 0, 1, 2, 3, 4])
                defer { raw.close() }
                return try raw.readUntilEndOfFile()
            }
            let types = frameTypes(received)
            #expect(types.first == 0x4)  // the server's SETTINGS
            #expect(types.last == 0x7)  // GOAWAY
        }
    }

    @Test func clientsThatSayNothingOrVanishAreForgotten() async throws {
        let handler = TestHandler()
        try await withServer(handler: handler) { server in
            let port = server.port
            try await onThread {
                for index in 0..<10 {
                    let raw = try RawTestSocket(port: port)
                    if index.isMultiple(of: 2) {
                        var reset = linger(l_onoff: 1, l_linger: 0)  // close sends RST: the client vanishes
                        _ = setsockopt(
                            raw.socket.fd, SOL_SOCKET, SO_LINGER, &reset, socklen_t(MemoryLayout<linger>.size))
                    }
                    raw.close()
                }
            }
            await server.waitUntil { $0.accepted == 10 && $0.open == 0 }
            let status = try await onThread { try ServerTestClient(port: port).send("/x").status }
            #expect(status == 200)
        }
        let log = handler.snapshot
        #expect(log.opened == 11)
        #expect(log.closed == 11)
    }

    @Test(arguments: [false, true])
    func aClientThatStallsIsDroppedAfterTheHandshakeTimeoutWhileOthersGoOn(tls: Bool) async throws {
        let (serverTLS, fixture) = try makeServerTLS()
        let client = tls ? try clientTLS(fixture) : nil
        let options = ServerTestOptions(tls: tls ? serverTLS : nil, handshakeTimeout: .milliseconds(300))
        try await withServer(handler: TestHandler(route: apnsLikeRoute), options: options) { server in
            let port = server.port
            async let stalled = onThread { () -> Double in
                let raw = try RawTestSocket(port: port)
                let start = monotonicSeconds()
                // Half a frame header after the preface, or half a TLS record header: then silence.
                try raw.write(tls ? [0x16, 0x03] : clientPreface + [0, 0])
                _ = try raw.readUntilEndOfFile()
                raw.close()
                return monotonicSeconds() - start
            }
            async let served = onThread { () -> Int in
                let good = try ServerTestClient(port: port, tls: client)
                let tokens = try (0..<20).map { _ in try good.request("/delay/10") }
                try good.waitFor(tokens)
                return tokens.filter { good.response($0)?.status == 200 }.count
            }
            #expect(try await served == 20)
            let waited = try await stalled
            #expect(waited >= 0.29)
            #expect(waited < 5)
        }
    }

    @Test func idleConnectionsGetGoAwayButNotWhileARequestAwaitsItsAnswer() async throws {
        let options = ServerTestOptions(idleTimeout: .milliseconds(200))
        try await withServer(handler: TestHandler(route: apnsLikeRoute), options: options) { server in
            let port = server.port
            let (status, goAways) = try await onThread { () -> (Int, [HTTP2GoAway]) in
                let client = try ServerTestClient(port: port)
                let status = try client.send("/delay/500").status  // longer than the idle timeout
                try client.waitForEndOfFile()
                return (status, client.goAways)
            }
            #expect(status == 200)
            #expect(goAways.map(\.errorCode) == [.noError])
        }
    }
}
