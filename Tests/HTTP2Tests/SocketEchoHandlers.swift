// Loop-confined IOHandlers for the socket tests: an echo server and a client that sends a payload
// and collects the echo. They report to the test through an AsyncStream, never with #expect on the
// loop thread (issues recorded there are not attributed to a test).
@testable import HTTP2

enum SocketEvent: Sendable {
    case connected(local: SocketAddress, remote: SocketAddress)
    case accepted(remote: SocketAddress)
    case clientReceived([UInt8])
    case clientSawEndOfFile
    case serverSawEndOfFile(echoed: Int)
    case connectFailed(SystemError)
    case failed(String)
}

/// Accepts connections and echoes each one.
final class EchoServer: IOHandler {
    let loop: EventLoop
    let listener: TCPListener
    let events: AsyncStream<SocketEvent>.Continuation
    /// Close each accepted connection at once instead of echoing.
    let closeImmediately: Bool

    init(
        loop: EventLoop, listener: TCPListener, events: AsyncStream<SocketEvent>.Continuation,
        closeImmediately: Bool = false
    ) {
        self.loop = loop
        self.listener = listener
        self.events = events
        self.closeImmediately = closeImmediately
    }

    func readable() {
        do {
            while let socket = try listener.accept() {
                events.yield(.accepted(remote: try socket.remoteAddress))
                if closeImmediately {
                    socket.close()
                    continue
                }
                try loop.register(
                    socket.fd, interest: .read, handler: EchoConnection(loop: loop, socket: socket, events: events))
            }
        } catch {
            events.yield(.failed("accept: \(error)"))
        }
    }

    func writable() {}

    func hangup() {
        try? loop.deregister(listener.fd)
        listener.close()
    }
}

/// Writes back what it reads; reports the total once the peer closes and everything is written.
final class EchoConnection: IOHandler {
    let loop: EventLoop
    let socket: TCPSocket
    let events: AsyncStream<SocketEvent>.Continuation
    var pending: [UInt8] = []
    var echoed = 0
    var sawEndOfFile = false

    init(loop: EventLoop, socket: TCPSocket, events: AsyncStream<SocketEvent>.Continuation) {
        self.loop = loop
        self.socket = socket
        self.events = events
    }

    func readable() {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        do {
            reading: while true {
                switch try buffer.withUnsafeMutableBytes({ try socket.read(into: $0) }) {
                case .bytes(let count): pending += buffer[..<count]
                case .wouldBlock: break reading
                case .endOfFile:
                    sawEndOfFile = true
                    break reading
                }
            }
            try flush()
        } catch {
            fail("\(error)")
        }
    }

    func writable() {
        do { try flush() } catch { fail("\(error)") }
    }

    func hangup() { fail("hung up") }

    private func flush() throws {
        var offset = 0
        writing: while offset < pending.count {
            let result = try pending[offset...].withUnsafeBytes { try socket.write($0) }
            switch result {
            case .written(let count): offset += count
            case .wouldBlock: break writing
            }
        }
        echoed += offset
        pending.removeFirst(offset)
        if pending.isEmpty && sawEndOfFile {
            close()
            events.yield(.serverSawEndOfFile(echoed: echoed))
        } else {
            // Stop reading after end of file (level-triggered, it would repeat); write while queued.
            var interest: IOInterest = sawEndOfFile ? [] : .read
            if !pending.isEmpty { interest.insert(.write) }
            try loop.modify(socket.fd, interest: interest)
        }
    }

    private func fail(_ reason: String) {
        guard socket.isOpen else { return }
        close()
        events.yield(.failed("server connection: \(reason)"))
    }

    private func close() {
        try? loop.deregister(socket.fd)
        socket.close()
    }
}

/// Connects, sends `payload` while reading the echo, and reports what came back.
final class EchoClient: IOHandler {
    let loop: EventLoop
    let socket: TCPSocket
    let payload: [UInt8]
    let events: AsyncStream<SocketEvent>.Continuation
    var connected: Bool
    var sent = 0
    var received: [UInt8] = []

    init(
        loop: EventLoop, socket: TCPSocket, connected: Bool, payload: [UInt8],
        events: AsyncStream<SocketEvent>.Continuation
    ) {
        self.loop = loop
        self.socket = socket
        self.connected = connected
        self.payload = payload
        self.events = events
    }

    /// The interest to register with: wait for the connect, or send and read at once.
    var initialInterest: IOInterest { connected ? [.read, .write] : .write }

    func writable() {
        do {
            if !connected {
                try socket.finishConnect()
                connected = true
                events.yield(.connected(local: try socket.localAddress, remote: try socket.remoteAddress))
            }
            writing: while sent < payload.count {
                switch try payload[sent...].withUnsafeBytes({ try socket.write($0) }) {
                case .written(let count): sent += count
                case .wouldBlock: break writing
                }
            }
            try loop.modify(socket.fd, interest: sent < payload.count ? [.read, .write] : .read)
        } catch let error as SystemError where !connected {
            close()
            events.yield(.connectFailed(error))
        } catch {
            fail("\(error)")
        }
    }

    func readable() {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        do {
            while true {
                switch try buffer.withUnsafeMutableBytes({ try socket.read(into: $0) }) {
                case .bytes(let count):
                    received += buffer[..<count]
                    if received.count >= payload.count && !payload.isEmpty {
                        close()  // the server now sees end of file
                        events.yield(.clientReceived(received))
                        return
                    }
                case .wouldBlock: return
                case .endOfFile:
                    close()
                    events.yield(payload.isEmpty ? .clientSawEndOfFile : .failed("early end of file"))
                    return
                }
            }
        } catch {
            fail("\(error)")
        }
    }

    func hangup() {
        // A failed connect may be reported here without EPOLLOUT.
        if !connected {
            do {
                try socket.finishConnect()
            } catch {
                close()
                events.yield(.connectFailed(error))
                return
            }
        }
        fail("hung up")
    }

    private func fail(_ reason: String) {
        guard socket.isOpen else { return }
        close()
        events.yield(.failed("client: \(reason)"))
    }

    private func close() {
        try? loop.deregister(socket.fd)
        socket.close()
    }
}
