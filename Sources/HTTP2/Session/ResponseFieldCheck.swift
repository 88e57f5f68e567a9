// What HTTP/2 calls a malformed response (RFC 9113 sections 8.1.1, 8.2, 8.3.2), checked by the
// client session itself, with nghttp2's own "HTTP messaging" checks turned off for clients. Those
// walk every header byte through a table; these read names and values eight bytes at a time. The verdicts
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
    @inline(__always)
    func isTrailer(laterBlock: Bool) -> Bool {
        laterBlock && !expectsFinalResponse
    }

    /// Checks one field of a header block of the response (`laterBlock`: not its first HEADERS
    /// frame, so trailers unless a 1xx came before). Names are compared as little-endian words (a
    /// name of 9 to 16 bytes by its first and last eight).
    mutating func field(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>, laterBlock: Bool)
        -> Verdict
    {
        guard let base = name.baseAddress, !name.isEmpty else { return .malformed }
        if base[0] == UInt8(ascii: ":") {
            return statusField(name, value, trailer: isTrailer(laterBlock: laterBlock))
        }
        guard RequestFieldCheck.isRegularName(name), RequestFieldCheck.isFieldValue(value) else { return .malformed }
        switch RequestFieldCheck.specialField(name) {
        case .te:
            if !RequestFieldCheck.equalsLowercase(value, "trailers") { return .malformed }
        case .connectionSpecific:
            return .malformed
        case .contentLength:
            return contentLengthField(value)
        case .host, .none:
            break
        }
        pseudoDisallowed = true
        return .keep
    }

    /// Takes a regular field that `field` has accepted before with the same name and value, one
    /// that means nothing to these checks (not content-length, te or a connection-specific field):
    /// only that a regular field came is noted.
    mutating func repeatedField() {
        pseudoDisallowed = true
    }

    /// Takes a `:status` field that `statusField` has accepted before with the same value: only
    /// its place is checked (once, first, not in trailers).
    mutating func repeatedStatus(_ value: Int, laterBlock: Bool) -> Verdict {
        guard !isTrailer(laterBlock: laterBlock), !pseudoDisallowed, status == -1 else { return .malformed }
        status = value
        return .keep
    }

    /// Takes a content-length whose name `field` has accepted before: its value is checked as
    /// `field` would.
    mutating func repeatedContentLength(_ value: UnsafeBufferPointer<UInt8>) -> Verdict {
        guard RequestFieldCheck.isFieldValue(value) else { return .malformed }
        return contentLengthField(value)
    }

    /// A pseudo-header: only `:status`, once, first, three digits, not 101.
    private mutating func statusField(
        _ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>, trailer: Bool
    ) -> Verdict {
        guard !trailer, !pseudoDisallowed, status == -1, name.count == 7,
            RequestFieldCheck.shortWord(name) == Words.status, value.count == 3, let digits = value.baseAddress
        else { return .malformed }
        let hundreds = digits[0] &- UInt8(ascii: "0")
        let tens = digits[1] &- UInt8(ascii: "0")
        let ones = digits[2] &- UInt8(ascii: "0")
        guard hundreds < 10, tens < 10, ones < 10 else { return .malformed }
        let parsed = Int(hundreds) * 100 + Int(tens) * 10 + Int(ones)
        guard parsed != 101 else { return .malformed }  // no Upgrade in HTTP/2 (RFC 9113 8.6)
        status = parsed
        return .keep
    }

    /// The names checked, as little-endian words, shared with the request checks
    /// (`ResponseFieldCheckTests` checks each against its text).
    typealias Words = RequestFieldCheck.Words

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

    /// Whether a header block, now complete, leaves the response well formed (`laterBlock`: not
    /// the first HEADERS frame; `endStream`: its frame ended the stream).
    mutating func headersComplete(laterBlock: Bool, endStream: Bool) -> Bool {
        if isTrailer(laterBlock: laterBlock) {
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
