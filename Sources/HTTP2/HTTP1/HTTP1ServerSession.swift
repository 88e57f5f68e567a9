// The server side of one HTTP/1.1 connection, sans I/O: bytes in, requests out (to the delegate);
// answers in, bytes out, in request order.
//
//   receive --parser--> .head: an exchange joins the queue (100 Continue queued if asked for)
//                       .bodyExceeded: the request is delivered now, flagged; reading ends
//                       .complete: the request is delivered with its body
//                       failure (malformed, header size): a 400/431 exchange ends the queue
//   submitResponse / startStreaming / reset: the exchange's answer, as bytes
//   produceOutput: the queue's head exchanges, in order; an exchange whose answer is all out
//                  leaves the queue; one without keep-alive ends the session (isAlive = false)
//
// Pipelining is bounded: the parser pauses once `maxPipelinedRequests` exchanges wait, the rest
// of the input is parked, and `resumeReading()` continues once answers have left.

/// The server side of one HTTP/1.1 connection: keep-alive, pipelining (answers in request order),
/// Content-Length and chunked request bodies, `Expect: 100-continue`, HEAD, HTTP/1.0 (closed after
/// the answer). Requests arrive as ``HTTP2Request``s with HTTP/2's pseudo-header fields, so one
/// handler serves both protocols.
///
/// Thread safety: none; owned by one event loop, not Sendable. Lifecycle: ``isAlive`` turns false
/// once an answer that ends the connection has been produced; call ``close()`` when the connection
/// ends, and delivered requests still open are reported closed.
public final class HTTP1ServerSession {
    public weak var delegate: (any HTTP1ServerSessionDelegate)?
    public let configuration: HTTP1SessionConfiguration
    let parser: HTTP1RequestParser
    /// Requests whose answers are not all produced yet, in arrival order.
    var exchanges: [HTTP1Exchange] = []
    var nextStreamID: Int32 = 1
    /// Input read past a pause, parsed by `resumeReading()`.
    var parked: [UInt8] = []
    /// No more requests are read (a failure, a body over the limit, no keep-alive, shutdown).
    var inputEnded = false
    /// An answer that ends the connection has been produced.
    var outputEnded = false
    var isClosed = false
    /// The request whose body is being read.
    private var current: (streamID: Int32, headers: HTTP2ReceivedHeaders)?
    private var ready: [HTTP2Request] = []
    var closedStreams: [(Int32, HTTP2ErrorCode)] = []
    private var delivering = false

    public init(configuration: HTTP1SessionConfiguration = HTTP1SessionConfiguration()) {
        self.configuration = configuration
        parser = HTTP1RequestParser(
            maxHeaderSize: configuration.maxHeaderSize, maxBodySize: configuration.maxBodySize)
    }

    /// False once the session has nothing more to say: close the connection when its output is written.
    public var isAlive: Bool { !isClosed && !outputEnded }

    /// Reading waits for answers (pipelining's bound): stop reading the socket until
    /// ``resumeReading()`` returns true.
    public var isReadingPaused: Bool { !isClosed && !inputEnded && parser.isPaused }

    /// A request head has been read (or found malformed) on this connection.
    public var hasReadARequestHead: Bool { nextStreamID > 1 || outputEnded || !exchanges.isEmpty }

    /// Delivered requests whose answers are not all produced yet.
    public var openStreamCount: Int { exchanges.reduce(0) { $0 + ($1.delivered ? 1 : 0) } }

    /// Delivered requests not answered yet (streaming answers still open count as answered).
    var unansweredCount: Int { exchanges.reduce(0) { $0 + ($1.delivered && !$1.isAnswered ? 1 : 0) } }

    // MARK: Input

    /// Parses bytes from the client and delivers the requests they complete. Malformed input is not
    /// thrown: the session queues its own 400 (431 for header fields too large) and ends.
    public func receive(_ bytes: UnsafeRawBufferPointer) {
        guard !isClosed, !inputEnded else { return }  // after the last request: dropped
        if parser.isPaused {
            parked.append(contentsOf: bytes)
            return
        }
        parse(bytes)
        deliverEvents()
    }

    /// After a pause, parses the parked input if answers have made room. Returns whether it did.
    @discardableResult
    public func resumeReading() -> Bool {
        guard isReadingPaused, exchanges.count < configuration.maxPipelinedRequests else { return false }
        parser.resume()
        let input = parked
        parked = []
        input.withUnsafeBytes { parse($0) }
        deliverEvents()
        return true
    }

    private func parse(_ bytes: UnsafeRawBufferPointer) {
        parser.messagesAllowed = configuration.maxPipelinedRequests - exchanges.count
        var offset = 0
        while offset < bytes.count && !inputEnded {
            let consumed = parser.parse(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            offset += consumed
            for event in parser.events { handle(event) }
            parser.events.removeAll(keepingCapacity: true)
            if let failure = parser.failure {
                fail(failure)
                return
            }
            if parser.isPaused {
                parked.append(contentsOf: bytes[offset...])
                return
            }
            // Fewer bytes than given and no error: an Upgrade or CONNECT message ended. Upgrades
            // are not taken (the answer is HTTP/1.1, RFC 9110 7.8); CONNECT was refused above.
            if consumed == 0 { break }
        }
    }

    private func handle(_ event: HTTP1ParserEvent) {
        guard !inputEnded else { return }
        switch event {
        case .head(let head):
            let streamID = nextStreamID
            let headers: HTTP2ReceivedHeaders
            do {
                headers = try head.receivedHeaders(scheme: configuration.scheme)
            } catch {
                fail(error)
                return
            }
            let isHTTP10 = head.versionMajor == 1 && head.versionMinor == 0
            // Stream ids run out after 2^30 requests: the last one closes the connection.
            let exhausted = streamID > Int32.max - 2
            nextStreamID = exhausted ? streamID : streamID + 2
            var exchange = HTTP1Exchange(
                streamID: streamID, isHead: head.method == "HEAD", isHTTP10: isHTTP10,
                keepAlive: head.keepAlive && !isHTTP10 && !exhausted)
            let overLimit = head.contentLength.map { $0 > UInt64(configuration.maxBodySize) } ?? false
            if head.expectsContinue && !overLimit {
                exchange.output = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
            }
            exchanges.append(exchange)
            current = (streamID, headers)
        case .bodyExceeded:
            guard let current else { return }
            deliver(
                HTTP2Request(streamID: current.streamID, headers: current.headers, body: [], exceededBodyLimit: true))
            // The rest of the body is not read: the connection closes after the answer.
            inputEnded = true
            if let index = index(of: current.streamID) { exchanges[index].keepAlive = false }
            self.current = nil
        case .complete(let body):
            guard let current else { return }
            deliver(HTTP2Request(streamID: current.streamID, headers: current.headers, body: body))
            if let index = index(of: current.streamID), !exchanges[index].keepAlive { inputEnded = true }
            self.current = nil
        }
    }

    private func deliver(_ request: HTTP2Request) {
        guard let index = index(of: request.streamID) else { return }
        exchanges[index].delivered = true
        ready.append(request)
    }

    /// Ends reading with the session's own answer, after those of the requests before it.
    private func fail(_ failure: HTTP1RequestFailure) {
        guard !inputEnded else { return }  // after the last request: its answer ends the connection
        inputEnded = true
        parked = []
        var exchange: HTTP1Exchange
        if let current, let index = index(of: current.streamID), !exchanges[index].delivered {
            exchange = exchanges.remove(at: index)  // its head was read, its body broke the framing
        } else {
            exchange = HTTP1Exchange(streamID: 0, isHead: false, isHTTP10: false, keepAlive: false)
        }
        current = nil
        exchange.keepAlive = false
        let body = Array("\(failure.reason)\n".utf8)
        exchange.output +=
            Self.head(
                status: failure.status, fields: [HTTP2Header("content-type", "text/plain; charset=utf-8")],
                framing: .length(body.count), keepAlive: false) + body
        exchange.answer = .complete
        exchanges.append(exchange)
    }

    /// At most `maxPipelinedRequests` + 1 exchanges wait: a search is cheaper than an index.
    func index(of streamID: Int32) -> Int? {
        exchanges.firstIndex { $0.streamID == streamID }
    }

    // MARK: Lifecycle

    /// Reads no more requests; the connection ends after the answers to those already read (at
    /// once if there are none). For shutdown and idle connections: HTTP/1.1 has no GOAWAY.
    public func finishAfterCurrentRequests() {
        guard !isClosed else { return }
        inputEnded = true
        parked = []
        if let lastDelivered = exchanges.lastIndex(where: { $0.delivered || $0.isAnswered }) {
            exchanges.removeSubrange((lastDelivered + 1)...)  // read in part: never delivered
            exchanges[lastDelivered].keepAlive = false
        } else {
            exchanges.removeAll()
            outputEnded = true
        }
    }

    /// Ends the session: delivered requests still open are reported closed (CANCEL).
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        for exchange in exchanges where exchange.delivered {
            closedStreams.append((exchange.streamID, .cancel))
        }
        exchanges = []
        parked = []
        ready = []
        deliverEvents()
    }

    func deliverEvents() {
        guard !delivering else { return }  // a delegate called back in: the outer loop delivers
        delivering = true
        defer { delivering = false }
        while !ready.isEmpty || !closedStreams.isEmpty {
            if !ready.isEmpty {
                let request = ready.removeFirst()
                if !isClosed { delegate?.session(self, didReceive: request) }
            } else {
                let (streamID, code) = closedStreams.removeFirst()
                delegate?.session(self, didCloseStream: streamID, errorCode: code)
            }
        }
    }
}
