import Glibc

/// A host name that could not be resolved: the name, and `getaddrinfo`'s error code and text.
///
/// Thread-safety: a value type; `Sendable`.
public struct ResolverError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name that was looked up.
    public let host: String
    /// The `EAI_*` code `getaddrinfo` returned (negative on glibc), e.g. `EAI_NONAME`.
    public let code: Int32
    /// The text for `code` (`gai_strerror`), or for `errno` when `code` is `EAI_SYSTEM`.
    public let message: String

    /// Creates an error for looking up `host`.
    public init(host: String, code: Int32, message: String) {
        self.host = host
        self.code = code
        self.message = message
    }

    /// "cannot resolve 'nonexistent.invalid': Name or service not known (EAI_NONAME)".
    public var description: String {
        "cannot resolve '\(host)': \(message) (\(Self.name(of: code)))"
    }

    /// The symbolic name of an `EAI_*` code.
    public static func name(of code: Int32) -> String {
        switch code {
        case EAI_NONAME: "EAI_NONAME"
        case EAI_AGAIN: "EAI_AGAIN"
        case EAI_FAIL: "EAI_FAIL"
        case EAI_FAMILY: "EAI_FAMILY"
        case EAI_MEMORY: "EAI_MEMORY"
        case EAI_SERVICE: "EAI_SERVICE"
        case EAI_SOCKTYPE: "EAI_SOCKTYPE"
        case EAI_SYSTEM: "EAI_SYSTEM"
        case EAI_BADFLAGS: "EAI_BADFLAGS"
        case -5: "EAI_NODATA"
        default: "EAI \(code)"
        }
    }
}
