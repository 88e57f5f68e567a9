#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The validity period of a certificate to generate, in UNIX seconds.
public struct CertificateValidity: Sendable, Equatable {
    public var notBefore: Int64
    public var notAfter: Int64

    public init(notBefore: Int64, notAfter: Int64) {
        self.notBefore = notBefore
        self.notAfter = notAfter
    }

    /// `days` days long, starting at `start` (default: one minute ago, to absorb clock skew).
    public static func days(_ days: Int, startingAt start: Int64? = nil) -> CertificateValidity {
        let from = start ?? (Int64(time(nil)) - 60)
        return CertificateValidity(notBefore: from, notAfter: from + Int64(days) * 86_400)
    }
}
