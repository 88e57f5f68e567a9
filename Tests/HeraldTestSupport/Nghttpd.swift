import Foundation
import HTTP2

/// nghttpd (Debian's nghttp2-server) on loopback, serving an empty file at /3/device/<token>.
public final class Nghttpd {
    let process: ChildProcess
    public let port: Int
    public let directory: String
    public static let token = String(repeating: "ab", count: 32)

    /// h2c when `tls` is nil; else TLS with the given PEM certificate and key.
    public init(tls: (certificate: String, key: String)? = nil, extraArguments: [String] = []) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nghttpd-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(
            atPath: directory + "/htdocs/3/device", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: directory + "/htdocs/3/device/" + Self.token, contents: Data())
        if let tls {
            try Data(tls.certificate.utf8).write(to: URL(fileURLWithPath: directory + "/cert.pem"))
            try Data(tls.key.utf8).write(to: URL(fileURLWithPath: directory + "/key.pem"))
        }
        // nghttpd cannot be told to pick a free port, and says nothing when it is listening. A port
        // found free may be taken before nghttpd binds it (tests run in parallel), nghttpd then exits
        // and a connect may even reach the other listener: so confirm nghttpd is still running once
        // its port answers, and start again on another port if it is not.
        var attempt = 0
        while true {
            let port = try Self.freePort()
            var arguments = ["-d", directory + "/htdocs"] + extraArguments
            if tls != nil {
                arguments += [String(port), directory + "/key.pem", directory + "/cert.pem"]
            } else {
                arguments += ["--no-tls", String(port)]
            }
            let process = try ChildProcess(["/usr/sbin/nghttpd"] + arguments)
            let listening = Self.waitUntilListening(port: port, process: process)
            if listening {
                self.process = process
                self.port = port
                return
            }
            process.stop()
            attempt += 1
            if attempt == 5 { throw NghttpdError(message: "nghttpd did not start listening (5 ports tried)") }
        }
    }

    deinit {
        process.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// nghttpd says nothing when it is ready: try to connect, a bounded number of times; then make
    /// sure it was nghttpd that answered (it is still running).
    private static func waitUntilListening(port: Int, process: ChildProcess) -> Bool {
        for _ in 0..<200 {
            if !process.isRunning { return false }
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            close(fd)
            if result == 0 { return process.isRunning }
            usleep(20_000)
        }
        return false
    }

    /// A port that is free now, outside Linux's ephemeral range (32768-60999) so that servers binding
    /// port 0 meanwhile cannot be given it.
    public static func freePort() throws -> Int {
        for _ in 0..<100 {
            let candidate = Int.random(in: 20_000..<32_000)
            guard let listener = try? TCPListener(host: "127.0.0.1", port: UInt16(candidate)) else { continue }
            listener.close()
            return candidate
        }
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        return Int(try listener.localAddress.port)
    }

    public struct NghttpdError: Error { public let message: String }
}
