import APNs
import APNsClient
import Foundation
import Testing

/// A transport shut down while its connection is still being set up must still finish shutting
/// down when that connection becomes ready afterwards (it closes it), rather than wait forever.
@Suite(.timeLimit(.minutes(1)))
struct ShutdownWhileConnectingTests {
    @Test func connectionReadyAfterShutdownIsClosed() async throws {
        let server = try HeldServer()
        defer { server.stop() }
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(server.port)")
        let transport = try HTTP2Transport(
            configuration: TransportConfiguration(endpoint: endpoint, idlePingInterval: nil))
        let notification = APNs.Notification(
            token: try DeviceToken(hex: String(repeating: "ab", count: 32)), topic: try Topic("com.example.app"),
            payload: Payload.alert(title: "Hi", body: "There"))
        let request = APNsRequest(notification: notification, authority: endpoint.authority, authorization: nil)

        let sent = Task { await transport.perform(request, timeout: .seconds(30)) }
        // The client connected; the server has not sent its SETTINGS, so the connection is not ready.
        let client = try await server.accept()
        let shutdown = Task { await transport.shutdown() }
        // The waiting request fails once the pool has begun shutting down.
        let result = await sent.value
        guard case .failure(.shutDown) = result else {
            Issue.record("expected shutDown, got \(result)")
            return
        }
        // Now the connection becomes ready: the pool must close it and finish its shutdown.
        server.sendSettings(client)
        await shutdown.value
        #expect(await server.readUntilClosed(client))
    }
}

/// A loopback TCP listener that accepts a connection and sends nothing until told to.
private final class HeldServer: @unchecked Sendable {
    // SAFETY: `listenFD` and `port` are written once in init; the fds are used by one thread at a time.
    let port: Int
    private let listenFD: Int32

    init() throws {
        let listenFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listenFD = listenFD
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(listenFD, pointer, length) == 0 && listen(listenFD, 4) == 0
                    && getsockname(listenFD, pointer, &length) == 0
            }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        guard bound else { throw HeldServerFailure() }
    }

    func accept() async throws -> Int32 {
        let fd = listenFD
        let client = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            Thread { continuation.resume(returning: Glibc.accept(fd, nil, nil)) }.start()
        }
        guard client >= 0 else { throw HeldServerFailure() }
        return client
    }

    /// An empty SETTINGS frame: the server preface.
    func sendSettings(_ client: Int32) {
        let frame: [UInt8] = [0, 0, 0, 4, 0, 0, 0, 0, 0]
        _ = frame.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
    }

    /// Reads until the peer closes; true when it did (false on a read error). A reset counts as
    /// closed: a client that closed while the server's SETTINGS were still on their way answers
    /// them with RST.
    func readUntilClosed(_ client: Int32) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            Thread {
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
                    if count <= 0 {
                        let closed = count == 0 || errno == ECONNRESET
                        close(client)
                        continuation.resume(returning: closed)
                        return
                    }
                }
            }.start()
        }
    }

    func stop() {
        shutdown(listenFD, Int32(SHUT_RDWR))
        close(listenFD)
    }
}

private struct HeldServerFailure: Error {}
