import CHTTPParser

// Output of an HTTP/1.1 session: the queue's head exchanges in order, and the status line and
// header fields of an answer (RFC 9112 4, 6).

extension HTTP1ServerSession {
    /// How an answer's body is delimited on the wire.
    enum Framing {
        case length(Int)
        case chunked
        /// HTTP/1.0 streaming: the body ends with the connection.
        case untilClose
        /// 204, 304: no body and no length.
        case none
    }

    /// Appends the bytes to send to `buffer`, stopping once it holds `maxBytes`; exchanges whose
    /// answers are all out leave the queue (their requests reported closed). Then delivers events.
    public func produceOutput(into buffer: inout [UInt8], maxBytes: Int = .max) {
        while !isClosed, !outputEnded, !exchanges.isEmpty, buffer.count < maxBytes {
            let pending = exchanges[0].pendingBytes
            if pending > 0 {
                let count = min(pending, maxBytes - buffer.count)
                let start = exchanges[0].produced
                buffer += exchanges[0].output[start..<start + count]
                exchanges[0].produced += count
                guard count == pending else { break }
            }
            exchanges[0].output.removeAll(keepingCapacity: true)
            exchanges[0].produced = 0
            let exchange = exchanges[0]
            guard exchange.answer == .complete || exchange.answer == .aborted else { break }  // more to come
            exchanges.removeFirst()
            if exchange.delivered {
                closedStreams.append((exchange.streamID, exchange.answer == .complete ? .noError : exchange.abortCode))
            }
            if !exchange.keepAlive || exchange.answer == .aborted {
                outputEnded = true
                for later in exchanges where later.delivered { closedStreams.append((later.streamID, .cancel)) }
                exchanges = []
            }
        }
        deliverEvents()
    }

    private static let droppedFields: Set<[UInt8]> = Set(
        ["content-length", "transfer-encoding", "connection", "keep-alive", "proxy-connection", "upgrade"].map {
            Array($0.utf8)
        })

    /// The status line and fields of an answer; the handler's framing and connection fields give
    /// way to the transport's.
    static func head(status: Int, fields: [HTTP2Header], framing: Framing, keepAlive: Bool) -> [UInt8] {
        var head = Array("HTTP/1.1 \(status) \(reasonPhrase(status))\r\n".utf8)
        for field in fields where !field.isPseudo && !droppedFields.contains(field.name) {
            head += field.name
            head += [UInt8(ascii: ":"), UInt8(ascii: " ")]
            head += field.value
            head += [13, 10]
        }
        switch framing {
        case .length(let count): head += Array("content-length: \(count)\r\n".utf8)
        case .chunked: head += Array("transfer-encoding: chunked\r\n".utf8)
        case .untilClose, .none: break
        }
        if !keepAlive { head += Array("connection: close\r\n".utf8) }
        head += [13, 10]
        return head
    }

    /// http-parser's reason phrase for `status`, or none (the phrase is optional, RFC 9112 4).
    private static func reasonPhrase(_ status: Int) -> String {
        guard let known = http_status_str(http_status(rawValue: UInt32(clamping: status))) else { return "" }
        let phrase = String(cString: known)
        return phrase == "<unknown>" ? "" : phrase
    }
}
