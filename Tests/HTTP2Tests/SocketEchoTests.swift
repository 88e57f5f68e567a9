import Glibc
import Testing
import HeraldTestSupport

@testable import HTTP2

/// Sets up a listener and a client on `loop`, and returns the events they report.
private func startEcho(
    on loop: EventLoop, host: String, payload: [UInt8], serverClosesAtOnce: Bool = false
) -> AsyncStream<SocketEvent> {
    let (stream, events) = AsyncStream.makeStream(of: SocketEvent.self)
    loop.execute {
        do {
            let listener = try TCPListener(host: host, port: 0)
            let server = EchoServer(
                loop: loop, listener: listener, events: events, closeImmediately: serverClosesAtOnce)
            try loop.register(listener.fd, interest: .read, handler: server)
            let (socket, connected) = try TCPSocket.connect(to: try listener.localAddress)
            try socket.setNoDelay()
            let client = EchoClient(loop: loop, socket: socket, connected: connected, payload: payload, events: events)
            try loop.register(socket.fd, interest: client.initialInterest, handler: client)
            if connected {
                events.yield(.connected(local: try socket.localAddress, remote: try socket.remoteAddress))
            }
        } catch {
            events.yield(.failed("setup: \(error)"))
        }
    }
    return stream
}

@Suite(.timeLimit(.minutes(1)))
struct SocketEchoTests {
    @Test(arguments: ["127.0.0.1", "::1"])
    func echoRoundTripDrivenByTheLoop(host: String) async throws {
        // 4 MiB: more than the socket buffers hold, so both sides meet would-block and resume.
        let payload = (0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        try await withLoop { loop in
            var received: [UInt8]?
            var echoed: Int?
            var connected: (local: SocketAddress, remote: SocketAddress)?
            var accepted: SocketAddress?
            for await event in startEcho(on: loop, host: host, payload: payload) {
                switch event {
                case .connected(let local, let remote): connected = (local, remote)
                case .accepted(let remote): accepted = remote
                case .clientReceived(let bytes): received = bytes
                case .serverSawEndOfFile(let count): echoed = count
                case .clientSawEndOfFile, .connectFailed, .failed:
                    Issue.record("unexpected \(event)")
                    return
                }
                if received != nil && echoed != nil { break }
            }
            #expect(received == payload)
            #expect(echoed == payload.count, "the server read to end of file and echoed everything")
            let addresses = try #require(connected)
            #expect(addresses.remote.host == host)
            #expect(addresses.local.isIPv6 == (host == "::1"))
            #expect(accepted == addresses.local, "the server sees the client's address")
        }
    }

    @Test(arguments: ["127.0.0.1", "::1"])
    func readingAfterThePeerClosesIsEndOfFile(host: String) async throws {
        try await withLoop { loop in
            var sawEndOfFile = false
            for await event in startEcho(on: loop, host: host, payload: [], serverClosesAtOnce: true) {
                switch event {
                case .connected, .accepted: continue
                case .clientSawEndOfFile: sawEndOfFile = true
                default: Issue.record("unexpected \(event)")
                }
                break
            }
            #expect(sawEndOfFile)
        }
    }

    @Test func connectingToAClosedPortFailsWithConnectionRefused() async throws {
        // Bound and never listening: refused, and no other test's server can be given it meanwhile.
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let port = UInt16(refusing.port)
        let address = try #require(SocketAddress(ipAddress: "127.0.0.1", port: port))
        try await withLoop { loop in
            let (stream, events) = AsyncStream.makeStream(of: SocketEvent.self)
            loop.execute {
                do {
                    let (socket, connected) = try TCPSocket.connect(to: address)
                    let client = EchoClient(
                        loop: loop, socket: socket, connected: connected, payload: [1], events: events)
                    try loop.register(socket.fd, interest: client.initialInterest, handler: client)
                } catch let error as SystemError {
                    events.yield(.connectFailed(error))  // refused before connect returned
                } catch {
                    events.yield(.failed("\(error)"))
                }
            }
            var failure: SystemError?
            for await event in stream {
                if case .connectFailed(let error) = event {
                    failure = error
                } else {
                    Issue.record("unexpected \(event)")
                }
                break
            }
            let error = try #require(failure)
            #expect(error.errno == ECONNREFUSED)
            #expect(error.function == "connect")
            #expect(error.description == "connect failed: Connection refused (errno 111)")
        }
    }
}
