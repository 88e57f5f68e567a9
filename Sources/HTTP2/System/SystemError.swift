import Glibc

/// A system call that failed: the function's name and the `errno` it set.
///
/// Thread-safety: a value type; `Sendable`.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The failing function, e.g. `"connect"`.
    public let function: String
    /// The `errno` value the call set, e.g. `ECONNREFUSED`.
    public let errno: Int32

    /// Creates an error for `function` failing with `errno`.
    public init(function: String, errno: Int32) {
        self.function = function
        self.errno = errno
    }

    /// The system's text for `errno`, e.g. "Connection refused".
    public var message: String {
        var buffer = [CChar](repeating: 0, count: 256)
        // The XSI strerror_r (what Swift's Glibc imports) fills the buffer and is thread-safe.
        guard strerror_r(errno, &buffer, buffer.count) == 0 else { return "Unknown error \(errno)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// "connect failed: Connection refused (errno 111)".
    public var description: String {
        "\(function) failed: \(message) (errno \(errno))"
    }
}
