#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Recognises IP address literals, which certificates name in IP SANs rather than DNS SANs.
package enum IPAddressText {
    /// Whether `text` is a dotted-quad IPv4 or a textual IPv6 address (no brackets, no zone).
    package static func isIPAddress(_ text: String) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        return text.withCString { inet_pton(AF_INET, $0, &buffer) == 1 || inet_pton(AF_INET6, $0, &buffer) == 1 }
    }
}
