// A blocking raw-socket client for HTTP/1.1 tests that curl cannot express (pipelining, malformed
// requests): write bytes, read until the server closes.
import Foundation
import Glibc

struct RawClientError: Error, CustomStringConvertible {
    let description: String
}

/// Connects to 127.0.0.1:`port`, writes each of `writes` (`pause` apart), then reads until the
/// server closes the connection (at most 20 s, so a server that never closes fails the test
/// instead of hanging it).
func rawHTTPExchange(port: UInt16, writes: [[UInt8]], pause: Duration = .zero) throws -> String {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw RawClientError(description: "socket: errno \(errno)") }
    defer { close(fd) }
    var timeout = timeval(tv_sec: 20, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(port.bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else { throw RawClientError(description: "connect: errno \(errno)") }
    for (index, bytes) in writes.enumerated() {
        if index > 0 && pause > .zero {
            // The pause is the point (a slow client), not a wait for something to happen.
            usleep(UInt32(pause.components.seconds * 1_000_000 + pause.components.attoseconds / 1_000_000_000_000))
        }
        let written = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard written == bytes.count else { throw RawClientError(description: "send: errno \(errno)") }
    }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count == 0 { break }
        guard count > 0 else {
            if errno == ECONNRESET { break }
            throw RawClientError(
                description: "recv: errno \(errno) after \(String(decoding: received, as: UTF8.self))")
        }
        received += buffer[0..<count]
    }
    return String(decoding: received, as: UTF8.self)
}

/// Runs curl with `arguments`; its stdout (the body, and whatever `-w` writes) and exit status.
func runCurl(_ arguments: [String]) async throws -> ToolRun {
    try await runTool("/usr/bin/curl", ["-sS", "--max-time", "20"] + arguments)
}
