// An HTTP/1.1 request head as the fields an HTTP/2 request carries (RFC 9113 8.3.1), so one
// handler serves both: `:method`, `:scheme`, `:authority` (from Host, or an absolute-form target),
// `:path`, then the other fields with lowercase names. Connection-specific fields (Connection,
// Keep-Alive, Proxy-Connection, Transfer-Encoding, Upgrade) and Expect are the transport's and
// are left out, as is Host (it is `:authority`).

extension HTTP1RequestHead {
    private static let transportFields: Set<[UInt8]> = Set(
        ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "expect", "host"].map {
            Array($0.utf8)
        })

    /// The request's fields for the handler; throws a 400 failure for a head HTTP/1.1 forbids.
    func receivedHeaders(scheme: String) throws(HTTP1RequestFailure) -> HTTP2ReceivedHeaders {
        var hosts: [[UInt8]] = []
        var regular: [(name: [UInt8], value: [UInt8])] = []
        regular.reserveCapacity(fields.count)
        for field in fields {
            let name = field.name.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            let value = Self.trimmed(field.value)
            if name == Array("host".utf8) { hosts.append(value) }
            if !Self.transportFields.contains(name) { regular.append((name, value)) }
        }
        guard hosts.count <= 1 else { throw HTTP1RequestFailure("more than one Host field") }
        var authority = hosts.first
        var path = target
        if let (targetAuthority, targetPath) = Self.splitAbsoluteForm(target) {
            authority = targetAuthority  // RFC 9112 3.2.2: the target's authority wins over Host
            path = targetPath
        }
        if versionMajor == 1 && versionMinor >= 1 && hosts.isEmpty {
            throw HTTP1RequestFailure("an HTTP/1.1 request needs a Host field")
        }
        guard method != "CONNECT" else { throw HTTP1RequestFailure("CONNECT is not supported") }
        guard path.first == UInt8(ascii: "/") || (path == [UInt8(ascii: "*")] && method == "OPTIONS") else {
            throw HTTP1RequestFailure("the request target must start with '/'")
        }
        var headers = HTTP2ReceivedHeaders()
        func add(_ name: String, _ value: [UInt8]) {
            Array(name.utf8).withUnsafeBufferPointer { name in
                value.withUnsafeBufferPointer { value in headers.append(name: name, value: value) }
            }
        }
        add(":method", Array(method.utf8))
        add(":scheme", Array(scheme.utf8))
        if let authority, !authority.isEmpty { add(":authority", authority) }
        add(":path", path)
        for field in regular {
            field.name.withUnsafeBufferPointer { name in
                field.value.withUnsafeBufferPointer { value in headers.append(name: name, value: value) }
            }
        }
        return headers
    }

    /// Whether the client waits for `100 Continue` before sending the body (RFC 9110 10.1.1).
    var expectsContinue: Bool {
        guard versionMajor == 1 && versionMinor >= 1 else { return false }
        return fields.contains { field in
            field.name.count == 6 && String(decoding: field.name, as: UTF8.self).lowercased() == "expect"
                && String(decoding: Self.trimmed(field.value), as: UTF8.self).lowercased() == "100-continue"
        }
    }

    private static func trimmed(_ value: [UInt8]) -> [UInt8] {
        var end = value.count
        while end > 0, value[end - 1] == UInt8(ascii: " ") || value[end - 1] == UInt8(ascii: "\t") { end -= 1 }
        var start = 0
        while start < end, value[start] == UInt8(ascii: " ") || value[start] == UInt8(ascii: "\t") { start += 1 }
        return Array(value[start..<end])
    }

    /// `http://host:port/path?query` -> (authority, path and query); nil for other forms.
    private static func splitAbsoluteForm(_ target: [UInt8]) -> ([UInt8], [UInt8])? {
        guard target.first != UInt8(ascii: "/") else { return nil }
        let separator = Array("://".utf8)
        guard target.count > 3,
            let schemeEnd = (0...(target.count - 3)).first(where: { target[$0..<$0 + 3].elementsEqual(separator) })
        else { return nil }
        let rest = target[(schemeEnd + 3)...]
        let pathStart = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
        let path = Array(rest[pathStart...])
        return (Array(rest[..<pathStart]), path.first == UInt8(ascii: "/") ? path : [UInt8(ascii: "/")] + path)
    }
}

/// A request the session answers itself (400, 431) before closing.
struct HTTP1RequestFailure: Error, Equatable {
    var status = 400
    var reason: String

    init(status: Int = 400, _ reason: String) {
        self.status = status
        self.reason = reason
    }
}
