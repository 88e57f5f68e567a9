#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a key file whole, reporting failures with the path and `strerror`.
enum KeyFile {
    /// PEM keys are a few hundred bytes; anything past this is not a key file.
    static let maximumSize = 1 << 20

    static func contents(of path: String) throws(KeysError) -> [UInt8] {
        let fd = retryingEINTR { open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw unreadable(path) }
        defer { _ = close(fd) }

        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                retryingEINTR { read(fd, buffer.baseAddress, buffer.count) }
            }
            if count < 0 { throw unreadable(path) }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > maximumSize {
                throw .fileUnreadable(path: path, reason: "larger than \(maximumSize) bytes, too large for a PEM key")
            }
        }
        return bytes
    }

    private static func unreadable(_ path: String) -> KeysError {
        .fileUnreadable(path: path, reason: String(cString: strerror(errno)))
    }

    private static func retryingEINTR<T: BinaryInteger>(_ call: () -> T) -> T {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }
}
