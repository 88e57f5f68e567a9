import Foundation
import Synchronization

/// A minimal HTTP CONNECT proxy for tests: one thread, blocking sockets, poll() to pump bytes both
/// ways. Records the request lines it saw; answers 407 when `requireAuthorization` and the request
/// lacks Proxy-Authorization.
final class ConnectProxy: @unchecked Sendable {
    // SAFETY: `requests` is behind a Mutex; the listening fd is written once before the thread starts.
    let port: Int
    private let listenFD: Int32
    private let requestLines = Mutex<[String]>([])
    private let requireAuthorization: Bool

    var requests: [String] { requestLines.withLock { $0 } }

    init(requireAuthorization: Bool = false) throws {
        self.requireAuthorization = requireAuthorization
        let listenFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listenFD = listenFD
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(listenFD, pointer, length) == 0 && listen(listenFD, 16) == 0 && getsockname(listenFD, pointer, &length) == 0
            }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        guard bound else { throw ProxyFailure(message: "cannot listen") }
        let thread = Thread { [self] in self.acceptLoop() }
        thread.start()
    }

    func stop() {
        shutdown(listenFD, Int32(SHUT_RDWR))
        close(listenFD)
    }

    private func acceptLoop() {
        while true {
            let client = accept(listenFD, nil, nil)
            if client < 0 { return }
            Thread { [self] in self.serve(client) }.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
            guard read(client, &byte, 1) == 1 else { return }
            head.append(byte)
        }
        let text = String(decoding: head, as: UTF8.self)
        let firstLine = text.components(separatedBy: "\r\n").first ?? ""
        requestLines.withLock { $0.append(firstLine) }
        if requireAuthorization && !text.contains("Proxy-Authorization: Basic ") {
            _ = "HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n".withCString { write(client, $0, strlen($0)) }
            return
        }
        let parts = firstLine.split(separator: " ")
        guard parts.count == 3, parts[0] == "CONNECT", let colon = parts[1].lastIndex(of: ":"),
            let port = UInt16(parts[1][parts[1].index(after: colon)...])
        else { return }
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(upstream) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(port.bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            _ = "HTTP/1.1 502 Bad Gateway\r\n\r\n".withCString { write(client, $0, strlen($0)) }
            return
        }
        _ = "HTTP/1.1 200 Connection established\r\n\r\n".withCString { write(client, $0, strlen($0)) }
        var fds = [pollfd(fd: client, events: Int16(POLLIN), revents: 0), pollfd(fd: upstream, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while poll(&fds, 2, 10_000) > 0 {
            for (index, source) in [client, upstream].enumerated() where fds[index].revents != 0 {
                let count = read(source, &buffer, buffer.count)
                if count <= 0 { return }
                let target = index == 0 ? upstream : client
                var offset = 0
                while offset < count {
                    let written = buffer.withUnsafeBytes { write(target, $0.baseAddress! + offset, count - offset) }
                    if written <= 0 { return }
                    offset += written
                }
            }
        }
    }

    struct ProxyFailure: Error { let message: String }
}
