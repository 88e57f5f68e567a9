// What a server bounds for clients that take without asking: connections that never send a
// request, connections beyond the limit, and bodies on answers to HEAD.
import Glibc
import Testing

@testable import HTTP2

@Suite(.timeLimit(.minutes(1)))
struct ServerBoundsTests {
    /// The preface and an empty SETTINGS frame: a client that has done its part and then idles.
    static let prefaceAndSettings = clientPreface + [0, 0, 0, 0x4, 0, 0, 0, 0, 0]

    @Test func aConnectionThatOnlySentThePrefaceGetsGoAwayAfterTheFirstRequestTimeout() async throws {
        // No idle timeout: only the first-request timeout can close it, long before the handshake timeout.
        let options = ServerTestOptions(firstRequestTimeout: .milliseconds(300))
        try await withServer(options: options) { server in
            let port = server.port
            let (received, waited) = try await onThread { () -> ([UInt8], Double) in
                let raw = try RawTestSocket(port: port)
                let start = monotonicSeconds()
                try raw.write(Self.prefaceAndSettings)
                let received = try raw.readUntilEndOfFile(timeout: 5)
                raw.close()
                return (received, monotonicSeconds() - start)
            }
            #expect(frameTypes(received).last == 0x7, "GOAWAY before the close")
            #expect(waited >= 0.29)
            #expect(waited < 5, "the handshake timeout is 10 s: the first-request timeout closed it")
            await server.waitUntil { $0.open == 0 }
        }
    }

    @Test func aConnectionThatSentARequestIsNotClosedByTheFirstRequestTimeout() async throws {
        let options = ServerTestOptions(firstRequestTimeout: .milliseconds(200))
        try await withServer(options: options) { server in
            let port = server.port
            let statuses = try await onThread { () -> [Int] in
                let client = try ServerTestClient(port: port)
                let first = try client.send("/a").status
                // Showing that nothing happens needs a (short) wait: past the timeout, then ask again.
                usleep(500_000)
                let second = try client.send("/b").status
                return [first, second]
            }
            #expect(statuses == [200, 200])
        }
    }

    @Test func overTheLimitNewConnectionsAreClosedAtOnceWhenRefusing() async throws {
        let options = ServerTestOptions(maximumConnections: 2, refusesConnectionsOverLimit: true)
        try await withServer(options: options) { server in
            let port = server.port
            let (refusedAtOnce, servedAfter) = try await onThread { () -> (Bool, Int) in
                let first = try ServerTestClient(port: port)
                let second = try ServerTestClient(port: port)
                _ = try first.send("/a")
                _ = try second.send("/b")
                let third = try RawTestSocket(port: port)
                try third.write(Self.prefaceAndSettings)
                let received = try third.readUntilEndOfFile(timeout: 5)
                third.close()
                first.close()
                // The slot is free once the server has counted the close.
                var status = 0
                for _ in 0..<100 where status == 0 {
                    if let client = try? ServerTestClient(port: port), let answer = try? client.send("/c") {
                        status = answer.status
                    }
                }
                return (received.isEmpty, status)
            }
            #expect(refusedAtOnce, "closed without a byte: not served, not left waiting in the backlog")
            #expect(server.refusedTotal >= 1)
            #expect(servedAfter == 200)
        }
    }

    @Test func anAnswerToHeadCarriesNoBody() async throws {
        // The default handler answers every request with its path as the body.
        try await withServer { server in
            let port = server.port
            let (head, get) = try await onThread { () -> (HTTP2Response?, HTTP2Response?) in
                let client = try ServerTestClient(port: port)
                let head = try client.request("/some/path", method: "HEAD")
                let get = try client.request("/some/path", method: "GET")
                try client.waitFor([head, get])
                return (client.response(head), client.response(get))
            }
            #expect(head?.status == 200)
            #expect(head?.body.isEmpty == true, "HEAD: headers only")
            #expect(head?.headers.value(for: "apns-id") == "1", "the headers a GET gets")
            #expect(get?.body == Array("/some/path".utf8))
        }
    }
}
