// What HTTP/2 calls a malformed response (RFC 9113 sections 8.1.1, 8.2, 8.3.2), checked by the
// client session itself, with nghttp2's own "HTTP messaging" checks turned off for clients. Those
// cost ~2,000 instructions per notification against nghttpd's seven response headers (measured:
// callgrind-client with them off); these read names and values eight bytes at a time. The verdicts
// are those of the nghttp2 this links (1.52): `ResponseFieldCheckTests` feeds hand-built responses
// to a client session of each kind and requires the same outcome for every one.
//
// Any of these resets the stream with PROTOCOL_ERROR:
//   - per field, in arrival order: a name with a character outside the lowercase token set (an
//     empty one included); a value with a control character other than HTAB, DEL, or whitespace at
//     either end; a pseudo-header other than `:status`, a second `:status`, one after a regular
//     field or in trailers; a `:status` that is not three digits, or is 101; connection-specific
//     fields; `te` other than "trailers"; a second or non-numeric content-length, or one in a 1xx
//     (in a 204 it must be "0", and is dropped; in a 2xx to CONNECT it is dropped);
//   - once a header block ends: a response without `:status`; trailers that do not end the stream;
//     END_STREAM while a final response is still expected (after a 1xx);
//   - DATA before the final response, or more of it than content-length; less at its end. A
//     response to HEAD, and a 204 or 304, has an empty body (content-length notwithstanding).
//
// A 1xx response is interim: its fields are dropped by the session, and a whole new response
// (`:status` first) follows in the next HEADERS frame.

/// The state of one response's checks. A value type kept in the stream's slot; not thread-safe.
struct ResponseFieldCheck {
    enum Verdict {
        /// Keep the field.
        case keep
        /// Drop the field: the response stays well formed (content-length in a 204, or in a 2xx to CONNECT).
        case drop
        /// Reset the stream with PROTOCOL_ERROR.
        case malformed
    }

    /// The request was HEAD (no body in its response) or CONNECT (a 2xx has no content-length).
    var requestIsHead = false
    var requestIsConnect = false
    /// The current response's `:status`, -1 until it comes.
    private(set) var status = -1
    /// A regular field came: no more pseudo-headers in this block.
    private var pseudoDisallowed = false
    /// A 1xx ended: the next HEADERS frame is a response, not trailers.
    private(set) var expectsFinalResponse = false
    /// The declared content-length, -1 when none.
    private(set) var contentLength: Int64 = -1
    /// DATA bytes received so far.
    private(set) var received: Int64 = 0

    /// Whether a HEADERS frame of category HEADERS (not the first) carries trailers: not when a
    /// 1xx came before it.
    func isTrailer(laterBlock: Bool) -> Bool {
        laterBlock && !expectsFinalResponse
    }

    /// Checks one field of the response's header block (`trailer`: of its trailers).
    mutating func field(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>, trailer: Bool) -> Verdict {
        guard let first = name.first else { return .malformed }
        if first == UInt8(ascii: ":") {
            guard !trailer, !pseudoDisallowed, status == -1, RequestFieldCheck.equals(name, ":status"),
                value.count == 3, let parsed = RequestFieldCheck.decimal(value), parsed != 101
            else { return .malformed }
            status = Int(parsed)
            return .keep
        }
        guard RequestFieldCheck.isRegularName(name), RequestFieldCheck.isFieldValue(value) else { return .malformed }
        switch name.count {
        case 2 where RequestFieldCheck.equals(name, "te"):
            guard RequestFieldCheck.equalsLowercase(value, "trailers") else { return .malformed }
        case 7 where RequestFieldCheck.equals(name, "upgrade"):
            return .malformed
        case 10 where RequestFieldCheck.equals(name, "connection") || RequestFieldCheck.equals(name, "keep-alive"):
            return .malformed
        case 14 where RequestFieldCheck.equals(name, "content-length"):
            return contentLengthField(value)
        case 16 where RequestFieldCheck.equals(name, "proxy-connection"):
            return .malformed
        case 17 where RequestFieldCheck.equals(name, "transfer-encoding"):
            return .malformed
        default:
            break
        }
        pseudoDisallowed = true
        return .keep
    }

    private mutating func contentLengthField(_ value: UnsafeBufferPointer<UInt8>) -> Verdict {
        if status == 204 {
            // Forbidden in a 204, but common as "0": nghttp2 drops that one.
            guard contentLength == -1, value.count == 1, value[0] == UInt8(ascii: "0") else { return .malformed }
            contentLength = 0
            return .drop
        }
        if status / 100 == 1 { return .malformed }
        if status / 100 == 2, requestIsConnect { return .drop }
        guard contentLength == -1, let length = RequestFieldCheck.decimal(value) else { return .malformed }
        contentLength = length
        pseudoDisallowed = true
        return .keep
    }

    /// Whether a header block, now complete, leaves the response well formed (`trailer`: the block
    /// was trailers; `endStream`: its frame ended the stream).
    mutating func headersComplete(trailer: Bool, endStream: Bool) -> Bool {
        if trailer {
            guard endStream else { return false }
        } else {
            guard status != -1 else { return false }
            if status / 100 == 1 {
                // Interim: the next block is a whole new response.
                expectsFinalResponse = true
                contentLength = -1
                status = -1
                pseudoDisallowed = false
            } else {
                expectsFinalResponse = false
                if requestIsHead || status == 204 || status == 304 {
                    contentLength = 0
                } else if requestIsConnect {
                    contentLength = -1
                }
            }
        }
        return !endStream || self.endStream()
    }

    /// Counts a DATA chunk; false when no final response came yet or the body exceeds content-length.
    mutating func data(count: Int) -> Bool {
        received += Int64(count)
        return !expectsFinalResponse && (contentLength == -1 || received <= contentLength)
    }

    /// Whether the response, now complete, is final and its body matches content-length.
    func endStream() -> Bool {
        !expectsFinalResponse && (contentLength == -1 || received == contentLength)
    }
}
