import Glibc
import Synchronization
import Testing

@testable import HTTP2

/// The server's end of the connection, handed to the loop's job (set before the client can be ready).
private final class ServerEnd: Sendable {
    let fd = Mutex<Int32>(-1)
}

@Suite(.timeLimit(.minutes(1)))
struct ClientEarlyFlushTests {
    @Test("many requests submitted in one loop turn start going out before the turn ends")
    func earlyFlush() async throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let port = try listener.localAddress.port
        let loop = try EventLoop(name: "client")
        let server = ServerEnd()
        let count = HTTP2ClientConnection.earlyFlushRequests + 8
        let sawBytesMidTurn = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            loop.execute {
                let configuration = HTTP2ClientConnection.Configuration(host: "127.0.0.1", port: Int(port), tls: nil)
                var resumed = false
                _ = HTTP2ClientConnection.open(on: loop, configuration: configuration) { connection, event in
                    guard case .ready = event, !resumed else { return }
                    resumed = true
                    loop.executeSoon {  // a turn of its own, as a resumed sender's, outside any read
                        let fd = server.fd.withLock { $0 }
                        // What arrived so far (preface, SETTINGS, ACK), so that poll below sees only requests.
                        var scratch = [UInt8](repeating: 0, count: 64 * 1024)
                        while recv(fd, &scratch, scratch.count, Int32(MSG_DONTWAIT)) > 0 {}
                        var headers = HTTP2HeaderBuffer()
                        headers.append(":method", "POST")
                        headers.append(":scheme", "http")
                        headers.append(":path", "/3/device/00")
                        headers.append(":authority", "127.0.0.1")
                        for _ in 0..<count {
                            connection.submit(headers: nil, extraHeaders: headers, body: [1], timeout: nil) { _ in }
                        }
                        // Still inside the turn: the requests reached the server only if a flush ran already.
                        var pollfd = Glibc.pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                        continuation.resume(returning: poll(&pollfd, 1, 2_000) == 1)
                        connection.close()
                    }
                }
            }
            // The server: accept, then its (empty) SETTINGS, which makes the client ready.
            var pollfd = Glibc.pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pollfd, 1, 10_000) == 1, let accepted = try? listener.accept() else { return }
            let fd = dup(accepted.fd)  // kept open past `accepted` (closed at the end of the test)
            accepted.close()
            server.fd.withLock { $0 = fd }
            let settings: [UInt8] = [0, 0, 0, 4, 0, 0, 0, 0, 0]
            _ = send(fd, settings, settings.count, 0)
        }
        await loop.shutdown()
        let fd = server.fd.withLock { $0 }
        if fd >= 0 { close(fd) }
        #expect(sawBytesMidTurn)
    }
}
