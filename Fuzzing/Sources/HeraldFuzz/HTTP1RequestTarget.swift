@testable import Gateway
@testable import HTTP2

/// The gateway's HTTP/1.1 request parsing: http-parser with Herald's callbacks and limits, the head
/// turned into HTTP/2's fields, the route table and the query parsers on the target. The first byte
/// says where to cut the rest in two: fed in two reads, the parser must find what it finds in one.
enum HTTP1RequestTarget {
    static let router: HTTPRouter<GatewayRoute>? = try? GatewayRoute.router()

    static func run(_ input: UnsafeBufferPointer<UInt8>) {
        guard let cut = input.first else { return }
        let bytes = Array(input.dropFirst())
        let whole = parse([bytes])
        let cutAt = bytes.isEmpty ? 0 : Int(cut) % bytes.count
        let split = parse([Array(bytes[..<cutAt]), Array(bytes[cutAt...])])
        require(whole.events == split.events, "one read: \(whole.events), two reads at \(cutAt): \(split.events)")
        require(
            whole.failure == split.failure,
            "one read: \(String(describing: whole.failure)), two: \(String(describing: split.failure))")
    }

    /// Parses `reads` in order as one connection would, returning the events in words (and reading
    /// each head as the server does).
    static func parse(_ reads: [[UInt8]]) -> (events: [String], failure: HTTP1RequestFailure?) {
        let parser = HTTP1RequestParser(maxHeaderSize: 4096, maxBodySize: 4096)
        var events: [String] = []
        for read in reads {
            let consumed = read.withUnsafeBytes { parser.parse($0) }
            require(consumed <= read.count, "consumed \(consumed) of \(read.count) bytes")
            events += parser.events.map(describe)
            parser.events.removeAll()
            if parser.failure != nil || parser.stoppedForUpgrade || consumed < read.count { break }
        }
        return (events, parser.failure)
    }

    static func describe(_ event: HTTP1ParserEvent) -> String {
        switch event {
        case .head(let head):
            let fields = head.fields.map { "\($0.name):\($0.value)" }.joined(separator: ",")
            route(head)
            return
                "head \(head.method) \(head.target) \(fields) \(head.versionMajor).\(head.versionMinor) \(head.keepAlive) \(String(describing: head.contentLength))"
        case .bodyExceeded: return "bodyExceeded"
        case .complete(let body): return "complete \(body)"
        }
    }

    /// What the gateway does with a head: HTTP/2's fields, the route, the query.
    static func route(_ head: HTTP1RequestHead) {
        _ = head.expectsContinue
        guard let headers = try? head.receivedHeaders(scheme: "http") else { return }
        let path = headers.value(for: ":path") ?? ""
        let method = headers.value(for: ":method") ?? ""
        require(path.utf8.first == UInt8(ascii: "/") || path == "*", "path \(path) passed")
        _ = router?.match(method: method, path: path)
        _ = try? GatewayQuery(target: path)
        _ = try? DeliveriesQuery(target: path)
    }
}
