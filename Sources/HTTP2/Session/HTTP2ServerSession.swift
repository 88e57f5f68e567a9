/// The server side of one HTTP/2 connection, sans I/O: feed it the bytes read from the client with
/// ``receive(_:)``, send what ``produceOutput(into:maxBytes:)`` gives; requests reach the delegate.
///
/// Enforces the configuration's limits on what clients send: SETTINGS_MAX_CONCURRENT_STREAMS (start
/// low and raise it with ``submitSettings(maxConcurrentStreams:)``, as APNs does), header list size
/// (RST_STREAM ENHANCE_YOUR_CALM) and body size (delivered early and flagged, for a 413).
///
/// Thread safety: none; owned by one event loop, not Sendable. Lifecycle: call ``close()`` when the
/// connection ends; delivered requests still open are then reported closed.
public final class HTTP2ServerSession {
    let engine: NGHTTP2Session
    public weak var delegate: (any HTTP2ServerSessionDelegate)?
    /// The connection that owns this session, if one does: told instead of `delegate`, without a
    /// weak reference (which would give the connection a side table and put every retain and
    /// release of it, several per request, on the slow path). The owner holds the session alone,
    /// so the session never outlives it.
    unowned(unsafe) var owner: (any HTTP2ServerSessionDelegate)?
    private var delivering = false

    /// Queues SETTINGS (max concurrent streams, initial window, max header list size) for the first output.
    public init(configuration: HTTP2SessionConfiguration = HTTP2SessionConfiguration()) throws(HTTP2Error) {
        engine = try NGHTTP2Session(role: .server, configuration: configuration)
    }

    // MARK: Bytes

    /// Processes bytes from the client, then delivers what they produced. Throws when the client broke
    /// the protocol (bad preface, garbage frames: flush the GOAWAY, then ``close()``).
    public func receive(_ bytes: UnsafeRawBufferPointer) throws(HTTP2Error) {
        defer { deliverEvents() }
        try engine.receive(bytes)
    }

    /// Appends the bytes to send to `buffer`, stopping once it holds `maxBytes`; then delivers events.
    public func produceOutput(into buffer: inout [UInt8], maxBytes: Int = .max) {
        engine.produceOutput(into: &buffer, limit: maxBytes)
        deliverEvents()
    }

    public var wantsRead: Bool { engine.wantsRead }
    public var wantsWrite: Bool { engine.wantsWrite }
    public var isAlive: Bool { engine.wantsRead || engine.wantsWrite }
    public var failure: HTTP2Error? { engine.failure }

    // MARK: Streams

    /// Queues the response on a delivered request's stream. `headers` (NO_COPY) and `extraHeaders`
    /// (copied) follow `:status`; `body` is kept, not copied, until sent. Throws `streamClosed` if
    /// the client has gone away from the stream meanwhile.
    public func submitResponse(
        streamID: Int32, status: Int, headerBlock: HTTP2HeaderBlock?, extraHeaders: HTTP2HeaderBuffer? = nil,
        body: [UInt8]?
    ) throws(HTTP2Error) {
        try engine.submitResponse(
            streamID: streamID, status: status, block: headerBlock, buffer: extraHeaders, body: body)
    }

    /// Queues a response from a plain header list (validated; allocates).
    public func submitResponse(
        streamID: Int32, status: Int, headers: [HTTP2Header] = [], body: [UInt8]? = nil
    ) throws(HTTP2Error) {
        for header in headers {
            try header.validate()
        }
        let buffer = headers.isEmpty ? nil : HTTP2HeaderBuffer(headers)
        try engine.submitResponse(streamID: streamID, status: status, block: nil, buffer: buffer, body: body)
    }

    /// Resets a stream, for example REFUSED_STREAM for a request the server will not process.
    public func submitRstStream(streamID: Int32, errorCode: HTTP2ErrorCode) throws(HTTP2Error) {
        try engine.resetStream(streamID, errorCode: errorCode)
    }

    /// Delivered requests whose streams are still open.
    public var openStreamCount: Int { engine.slots.openCount }

    // MARK: Connection

    /// Changes SETTINGS_MAX_CONCURRENT_STREAMS; clients see it once the SETTINGS frame is sent.
    public func submitSettings(maxConcurrentStreams: UInt32) throws(HTTP2Error) {
        try engine.submitSettings(maxConcurrentStreams: maxConcurrentStreams)
    }

    /// Queues GOAWAY. Requests above `lastStreamID` (default: the last one processed) are closed here
    /// as refused once it is sent, and the client knows it may resend them elsewhere. APNs puts
    /// `{"reason":"..."}` in `debugData`.
    public func submitGoAway(
        lastStreamID: Int32? = nil, errorCode: HTTP2ErrorCode = .noError, debugData: [UInt8] = []
    ) throws(HTTP2Error) {
        try engine.submitGoAway(lastStreamID: lastStreamID, errorCode: errorCode, debugData: debugData)
    }

    /// Graceful GOAWAY: NO_ERROR, open requests may finish.
    public func goAway() throws(HTTP2Error) {
        try engine.submitGoAway(lastStreamID: nil, errorCode: .noError, debugData: [])
    }

    /// The first step of a graceful shutdown: GOAWAY with last-stream-id 2^31-1, so requests in
    /// flight are still accepted; follow with ``goAway()`` a round trip later.
    public func submitShutdownNotice() throws(HTTP2Error) {
        try engine.submitShutdownNotice()
    }

    public func submitPing(payload: UInt64 = 0) throws(HTTP2Error) {
        try engine.submitPing(payload: payload)
    }

    /// The client's SETTINGS as in force now (nil once closed).
    public var remoteSettings: HTTP2Settings? { engine.session.map { engine.remoteSettings($0) } }

    /// Ends the session: delivered requests still open are reported closed (CANCEL); nghttp2's
    /// state is freed. Further calls throw `sessionClosed`.
    public func close() {
        engine.close()
        deliverEvents()
    }

    // MARK: Delivery

    private func deliverEvents() {
        guard !delivering else { return }  // a delegate called back in: the outer loop delivers
        delivering = true
        defer { delivering = false }
        var next = 0
        while next < engine.events.count {
            let event = engine.events[next]
            next += 1
            switch event {
            case .requestReady(let slot):
                let streamID = engine.slots[slot].streamID
                if streamID > engine.refusingAbove {
                    // Above our GOAWAY's last-stream-id: the client was told it was not processed.
                    engine.slots[slot].delivered = false
                    try? engine.resetStream(streamID, errorCode: .refusedStream)
                    continue
                }
                var request = engine.takeRequest(slot)
                (owner ?? delegate)?.session(self, didReceive: request)
                engine.recycle(slot, headers: &request.headers, body: &request.body)
            case .serverStreamClosed(let slot):
                let streamID = engine.slots[slot].streamID
                let code = HTTP2ErrorCode(rawValue: engine.slots[slot].closeCode)
                engine.slots.release(slot)
                (owner ?? delegate)?.session(self, didCloseStream: streamID, errorCode: code)
            case .settings(let settings):
                (owner ?? delegate)?.session(self, didReceiveSettings: settings)
            case .goAway(let goAway):
                (owner ?? delegate)?.session(self, didReceiveGoAway: goAway)
            case .pingAck(let payload):
                (owner ?? delegate)?.session(self, didReceivePingAck: payload)
            case .clientStreamClosed, .responseHead, .responseData:
                break
            }
        }
        engine.events.removeAll(keepingCapacity: true)
    }
}
