#if canImport(Glibc)
    import Glibc
#endif

/// A loopback port where connects are refused for as long as this lives: a socket bound to it
/// (the kernel picks the port) that never listens. A connect gets a reset, and no other server
/// can be given the port meanwhile, which a port merely free a moment ago does not promise: a
/// server another test starts may take it in between.
///
/// Lifecycle: keep it until the test no longer connects (`close()` at the end, or a `defer`).
public final class RefusingPort {
    public let port: Int
    private var fd: Int32

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RefusingPortError(call: "socket", code: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            let code = errno
            Glibc.close(fd)
            throw RefusingPortError(call: bound == 0 ? "getsockname" : "bind", code: code)
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Gives the port back.
    public func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    deinit { close() }
}

public struct RefusingPortError: Error, CustomStringConvertible {
    public let call: String
    public let code: Int32
    public var description: String { "\(call): \(String(cString: strerror(code)))" }
}
