import CNghttp2

/// One HTTP/2 header field: lowercase name, value, and whether HPACK may index it.
///
/// For building requests and responses where speed does not matter, and for reading received headers
/// one at a time. The hot path uses ``HTTP2HeaderBlock`` (built once) and ``HTTP2HeaderBuffer`` (reused).
public struct HTTP2Header: Sendable, Hashable, CustomStringConvertible {
    public var name: [UInt8]
    public var value: [UInt8]
    /// Send as "literal never indexed" (RFC 7541 section 6.2.3): for values that change per request
    /// (`:path`, `apns-id`, `apns-expiration`, `apns-collapse-id`) or are secret.
    public var neverIndex: Bool

    public init(name: [UInt8], value: [UInt8], neverIndex: Bool = false) {
        self.name = name
        self.value = value
        self.neverIndex = neverIndex
    }

    public init(_ name: String, _ value: String, neverIndex: Bool = false) {
        self.init(name: Array(name.utf8), value: Array(value.utf8), neverIndex: neverIndex)
    }

    public var nameString: String { String(decoding: name, as: UTF8.self) }
    public var valueString: String { String(decoding: value, as: UTF8.self) }

    /// Pseudo-headers (`:method`, `:path`, `:status`, ...) start with a colon and come first.
    var isPseudo: Bool { name.first == UInt8(ascii: ":") }

    public var description: String { "\(nameString): \(valueString)" }

    /// Checks the name (lowercase token, or `:` and a lowercase token) and the value (RFC 9113 8.2.1).
    public func validate() throws(HTTP2Error) {
        try HTTP2Header.validate(name: name, value: value)
    }

    static func validate(name: [UInt8], value: [UInt8]) throws(HTTP2Error) {
        let nameOK = name.withUnsafeBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return false }
            if base[0] == UInt8(ascii: ":") {
                return buffer.count > 1 && nghttp2_check_header_name(base + 1, buffer.count - 1) != 0
            }
            return nghttp2_check_header_name(base, buffer.count) != 0
        }
        let displayName = String(decoding: name, as: UTF8.self)
        guard nameOK else {
            throw HTTP2Error(
                .invalidHeader(name: displayName, reason: "names are lowercase tokens, or ':' and a token"))
        }
        let valueOK = value.withUnsafeBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            return nghttp2_check_header_value_rfc9113(base, buffer.count) != 0
        }
        guard valueOK else {
            throw HTTP2Error(
                .invalidHeader(
                    name: displayName,
                    reason: "values hold no NUL, CR or LF and no leading or trailing space or tab"))
        }
    }
}
