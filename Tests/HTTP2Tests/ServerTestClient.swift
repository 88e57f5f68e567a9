// Blocking test clients for the server tests, meant to run on a thread of their own (`onThread`),
// never on the cooperative pool: an HTTP/2 client (HTTP2ClientSession over ConnectionIO, waiting in
// poll(2)) and a raw socket for clients that misbehave.
import Glibc

@testable import HTTP2

struct TestClientFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
    Double(EventLoop.now()) / 1e9
}

/// Waits up to `timeout` seconds for `events` on `fd`; returns the events seen (0 on timeout).
func pollDescriptor(_ fd: Int32, events: Int16, timeout: Double) -> Int16 {
    var descriptor = pollfd(fd: fd, events: events, revents: 0)
    let result = poll(&descriptor, 1, Int32(max(0, timeout * 1000).rounded(.up)))
    return result > 0 ? descriptor.revents : 0
}

/// Connects to 127.0.0.1:`port`, blocking (in poll) until connected.
func connectBlocking(port: UInt16, host: String = "127.0.0.1") throws -> TCPSocket {
    guard let address = SocketAddress(ipAddress: host, port: port) else { throw TestClientFailure("bad host \(host)") }
    let (socket, connected) = try TCPSocket.connect(to: address)
    if !connected {
        _ = pollDescriptor(socket.fd, events: Int16(POLLOUT), timeout: 5)
        try socket.finishConnect()
    }
    return socket
}

/// An HTTP/2 client that runs its connection in the calling thread until a condition holds.
final class ServerTestClient: HTTP2ClientSessionDelegate {
    let session: HTTP2ClientSession
    var io: ConnectionIO
    let scheme: String
    private(set) var responses: [UInt64: HTTP2Response] = [:]
    private(set) var failures: [UInt64: HTTP2StreamError] = [:]
    /// Tokens in the order their streams ended.
    private(set) var finished: [UInt64] = []
    private(set) var goAways: [HTTP2GoAway] = []
    private(set) var settings: [HTTP2Settings] = []
    /// The server ended the connection (end of stream, reset, or an error reading).
    private(set) var sawEndOfFile = false
    private(set) var connectionError: HTTP2ConnectionError?
    private var lastToken: UInt64 = 0

    init(
        port: UInt16, tls: TLSContext? = nil, serverName: String? = nil,
        configuration: HTTP2SessionConfiguration = HTTP2SessionConfiguration()
    ) throws {
        let socket = try connectBlocking(port: port)
        let tlsSession = try tls.map { try TLSSession(context: $0, serverName: serverName) }
        try tlsSession?.startHandshake()
        io = ConnectionIO(socket: socket, tls: tlsSession)
        scheme = tls == nil ? "http" : "https"
        session = try HTTP2ClientSession(configuration: configuration)
        session.delegate = self
    }

    deinit { close() }

    /// Queues a request; returns its token.
    @discardableResult
    func request(_ path: String, method: String = "POST", headers: [HTTP2Header] = [], body: [UInt8] = []) throws
        -> UInt64
    {
        lastToken += 1
        let pseudo = [
            HTTP2Header(":method", method), HTTP2Header(":scheme", scheme), HTTP2Header(":authority", "localhost"),
            HTTP2Header(":path", path),
        ]
        try session.submitRequest(headers: pseudo + headers, body: body.isEmpty ? nil : body, token: lastToken)
        return lastToken
    }

    /// Sends what is queued and reads until `done()` holds; throws on timeout, or if the server
    /// ends the connection first.
    func run(timeout: Double = 20, until done: () -> Bool) throws {
        let deadline = monotonicSeconds() + timeout
        while true {
            let pending = flush()
            if done() { return }
            if sawEndOfFile {
                throw TestClientFailure("the server ended the connection (\(connectionError.map { "\($0)" } ?? "EOF"))")
            }
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0 else { throw TestClientFailure("timed out") }
            let events = Int16(POLLIN) | (pending ? Int16(POLLOUT) : 0)
            let seen = pollDescriptor(io.socket.fd, events: events, timeout: min(remaining, 0.05))
            if seen & (Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR)) != 0 { readOnce() }
        }
    }

    /// Waits for the streams of `tokens` to end.
    func waitFor(_ tokens: [UInt64], timeout: Double = 20) throws {
        try run(timeout: timeout) { tokens.allSatisfy { responses[$0] != nil || failures[$0] != nil } }
    }

    /// One request, waited for.
    func send(_ path: String, headers: [HTTP2Header] = [], body: [UInt8] = []) throws -> HTTP2Response {
        let token = try request(path, headers: headers, body: body)
        try waitFor([token])
        guard let response = responses[token] else {
            throw TestClientFailure("\(path) failed: \(failures[token].map { "\($0)" } ?? "?")")
        }
        return response
    }

    /// Reads until the server ends the connection.
    func waitForEndOfFile(timeout: Double = 20) throws {
        try run(timeout: timeout) { sawEndOfFile }
    }

    func response(_ token: UInt64) -> HTTP2Response? { responses[token] }
    func failure(_ token: UInt64) -> HTTP2StreamError? { failures[token] }

    func close() {
        session.close()
        io.socket.close()
    }

    /// Writes what the session has; returns whether bytes are still queued.
    private func flush() -> Bool {
        guard !sawEndOfFile else { return false }
        do {
            return try io.flush { buffer, limit in session.produceOutput(into: &buffer, maxBytes: limit) }
        } catch {
            connectionError = error
            sawEndOfFile = true
            return false
        }
    }

    private func readOnce() {
        do {
            let outcome = try io.readAvailable { (bytes) throws(HTTP2ConnectionError) in try self.receive(bytes) }
            if outcome == .endOfFile { sawEndOfFile = true }
        } catch {
            connectionError = error
            sawEndOfFile = true
        }
    }

    private func receive(_ bytes: UnsafeRawBufferPointer) throws(HTTP2ConnectionError) {
        do {
            try session.receive(bytes)
        } catch {
            throw .http2(error)
        }
    }

    // MARK: HTTP2ClientSessionDelegate

    func session(_ session: HTTP2ClientSession, didReceive response: HTTP2Response, for token: UInt64) {
        responses[token] = response
        finished.append(token)
    }

    func session(_ session: HTTP2ClientSession, didFail error: HTTP2StreamError, for token: UInt64) {
        failures[token] = error
        finished.append(token)
    }

    func session(_ session: HTTP2ClientSession, didReceiveGoAway goAway: HTTP2GoAway) {
        goAways.append(goAway)
    }

    func session(_ session: HTTP2ClientSession, didReceiveSettings settings: HTTP2Settings) {
        self.settings.append(settings)
    }
}

/// A TCP connection that sends what it is told and reports what comes back, for clients that do
/// not speak HTTP/2.
final class RawTestSocket {
    let socket: TCPSocket

    init(port: UInt16) throws {
        socket = try connectBlocking(port: port)
    }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let result = try bytes.withUnsafeBytes { try socket.write(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            switch result {
            case .written(let count): offset += count
            case .wouldBlock: _ = pollDescriptor(socket.fd, events: Int16(POLLOUT), timeout: 1)
            }
        }
    }

    /// Reads until the server ends the connection (EOF or reset); returns the bytes it sent.
    func readUntilEndOfFile(timeout: Double = 20) throws -> [UInt8] {
        let deadline = monotonicSeconds() + timeout
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0 else { throw TestClientFailure("timed out waiting for the server to close") }
            _ = pollDescriptor(socket.fd, events: Int16(POLLIN), timeout: min(remaining, 0.05))
            do {
                switch try buffer.withUnsafeMutableBytes({ try socket.read(into: $0) }) {
                case .bytes(let count): received += buffer[..<count]
                case .wouldBlock: continue
                case .endOfFile: return received
                }
            } catch {
                return received  // ECONNRESET: ended too
            }
        }
    }

    func close() {
        socket.close()
    }
}
