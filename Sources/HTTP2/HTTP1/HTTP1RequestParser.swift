// HTTP/1.1 request parsing over http-parser 2.9 (Debian's libhttp-parser-dev): the library reads
// the request line, header fields, Content-Length and chunked framing; this file collects what its
// callbacks report into events for HTTP1ServerSession.
//
//   parse(bytes) --http_parser_execute--> on_url / on_header_field / on_header_value (collected,
//   counted against maxHeaderSize) --> on_headers_complete: .head --> on_body (kept up to
//   maxBodySize, then .bodyExceeded once) --> on_message_complete: .complete(body)
//
// Callbacks are non-capturing closures that find the parser through http_parser's `data` pointer
// (unretained: the parser outlives every execute call). They never throw across C: a limit passed
// records the failure and returns 1, which stops the library with an HPE_CB_* error.
import CHTTPParser

/// The request line and header fields of one request, as `on_headers_complete` saw them.
struct HTTP1RequestHead {
    var method: String
    var target: [UInt8]
    var fields: [(name: [UInt8], value: [UInt8])]
    var versionMajor: Int
    var versionMinor: Int
    var keepAlive: Bool
    /// Content-Length when given and the body is not chunked.
    var contentLength: UInt64?
}

/// What one `parse` call found, in order.
enum HTTP1ParserEvent {
    case head(HTTP1RequestHead)
    /// The body passed the limit (at once for a Content-Length over it); the rest is dropped.
    case bodyExceeded
    case complete(body: [UInt8])
}

/// One connection's request parser. Loop-owned; not thread-safe.
final class HTTP1RequestParser {
    private let parser: UnsafeMutablePointer<http_parser>
    let maxHeaderSize: Int
    let maxBodySize: Int
    var events: [HTTP1ParserEvent] = []
    /// Complete messages the next `parse` may read before pausing (pipelining's bound).
    var messagesAllowed = Int.max
    private(set) var failure: HTTP1RequestFailure?

    private var headerBytes = 0
    private var target: [UInt8] = []
    private var fields: [(name: [UInt8], value: [UInt8])] = []
    private var name: [UInt8] = []
    private var value: [UInt8] = []
    private var inValue = false
    private var body: [UInt8] = []
    private var bodyExceeded = false

    init(maxHeaderSize: Int, maxBodySize: Int) {
        self.maxHeaderSize = maxHeaderSize
        self.maxBodySize = maxBodySize
        parser = .allocate(capacity: 1)
        http_parser_init(parser, HTTP_REQUEST)
    }

    deinit {
        parser.deallocate()
    }

    /// Whether the last `parse` stopped at `messagesAllowed`; `resume()` before parsing again.
    var isPaused: Bool { herald_http_parser_errno(parser) == HPE_PAUSED }

    func resume() {
        http_parser_pause(parser, 0)
    }

    /// Parses `bytes`; returns how many were consumed (fewer when paused, or when a CONNECT or an
    /// upgrade ended the message and the rest is not HTTP/1.1). Sets `failure` on malformed input.
    func parse(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard failure == nil, !isPaused else { return 0 }
        parser.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        let consumed = withUnsafePointer(to: Self.settings) { settings in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                http_parser_execute(parser, settings, chars.baseAddress, chars.count)
            }
        }
        let code = herald_http_parser_errno(parser)
        if code != HPE_OK && code != HPE_PAUSED && failure == nil {
            let description = String(cString: http_errno_description(code))
            failure =
                code == HPE_HEADER_OVERFLOW
                ? HTTP1RequestFailure(status: 431, "the request's header fields are too large")
                : HTTP1RequestFailure("malformed HTTP/1.1 request: \(description)")
        }
        return consumed
    }

    /// Whether the message just parsed switched protocols (CONNECT, or Upgrade with Connection:
    /// upgrade): http-parser stops after it.
    var stoppedForUpgrade: Bool { parser.pointee.upgrade != 0 }

    // MARK: Callbacks

    private func countHeader(_ count: Int) -> Bool {
        headerBytes += count
        guard headerBytes <= maxHeaderSize else {
            failure = HTTP1RequestFailure(
                status: 431, "the request line and header fields exceed \(maxHeaderSize) bytes")
            return false
        }
        return true
    }

    private func commitField() {
        guard inValue || !name.isEmpty else { return }
        fields.append((name, value))
        name = []
        value = []
        inValue = false
    }

    fileprivate func messageBegin() -> Int32 {
        headerBytes = 0
        target.removeAll(keepingCapacity: true)
        fields = []
        name = []
        value = []
        inValue = false
        body = []
        bodyExceeded = false
        return 0
    }

    fileprivate func url(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        guard countHeader(bytes.count) else { return 1 }
        target.append(contentsOf: bytes)
        return 0
    }

    fileprivate func headerField(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        guard countHeader(bytes.count) else { return 1 }
        if inValue { commitField() }
        name.append(contentsOf: bytes)
        return 0
    }

    fileprivate func headerValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        guard countHeader(bytes.count) else { return 1 }
        inValue = true
        value.append(contentsOf: bytes)
        return 0
    }

    fileprivate func headersComplete() -> Int32 {
        commitField()
        let parser = self.parser.pointee
        let chunked = herald_http_parser_is_chunked(self.parser) != 0
        // http-parser keeps ULLONG_MAX in content_length when there is no Content-Length.
        let length: UInt64? = chunked || parser.content_length == UInt64.max ? nil : parser.content_length
        let head = HTTP1RequestHead(
            method: String(cString: http_method_str(http_method(rawValue: parser.method))),
            target: target, fields: fields, versionMajor: Int(parser.http_major),
            versionMinor: Int(parser.http_minor), keepAlive: http_should_keep_alive(self.parser) != 0,
            contentLength: length)
        events.append(.head(head))
        fields = []
        if let length, length > UInt64(maxBodySize) {
            bodyExceeded = true
            events.append(.bodyExceeded)
        }
        return 0
    }

    fileprivate func bodyData(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        guard !bodyExceeded else { return 0 }
        guard body.count + bytes.count <= maxBodySize else {
            bodyExceeded = true
            body = []
            events.append(.bodyExceeded)
            return 0
        }
        body.append(contentsOf: bytes)
        return 0
    }

    fileprivate func messageComplete() -> Int32 {
        events.append(.complete(body: body))
        body = []
        messagesAllowed -= 1
        if messagesAllowed <= 0 { http_parser_pause(parser, 1) }
        return 0
    }

    // MARK: Settings

    private static let settings: http_parser_settings = {
        var settings = http_parser_settings()
        http_parser_settings_init(&settings)
        settings.on_message_begin = { parser in owner(parser)?.messageBegin() ?? 1 }
        settings.on_url = { parser, at, length in owner(parser)?.url(span(at, length)) ?? 1 }
        settings.on_header_field = { parser, at, length in owner(parser)?.headerField(span(at, length)) ?? 1 }
        settings.on_header_value = { parser, at, length in owner(parser)?.headerValue(span(at, length)) ?? 1 }
        settings.on_headers_complete = { parser in owner(parser)?.headersComplete() ?? 1 }
        settings.on_body = { parser, at, length in owner(parser)?.bodyData(span(at, length)) ?? 1 }
        settings.on_message_complete = { parser in owner(parser)?.messageComplete() ?? 1 }
        return settings
    }()
}

/// The parser whose `data` is set for the call in progress.
private func owner(_ parser: UnsafeMutablePointer<http_parser>?) -> HTTP1RequestParser? {
    guard let data = parser?.pointee.data else { return nil }
    return Unmanaged<HTTP1RequestParser>.fromOpaque(data).takeUnretainedValue()
}

private func span(_ at: UnsafePointer<CChar>?, _ length: Int) -> UnsafeBufferPointer<UInt8> {
    guard let at else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeRawPointer(at).withMemoryRebound(to: UInt8.self, capacity: length) {
        UnsafeBufferPointer(start: $0, count: length)
    }
}
