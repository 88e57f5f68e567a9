/// The client side of one HTTP/2 connection, sans I/O: feed it the bytes read from the peer with
/// ``receive(_:)``, send what ``produceOutput(into:maxBytes:)`` gives, and learn outcomes from the
/// delegate.
///
/// Thread safety: none. The session belongs to one owner (the connection's event loop) and is not
/// Sendable. Lifecycle: the owner calls ``close()`` when the connection ends; that reports every
/// request still in flight (``HTTP2StreamError/Kind/connectionClosed``) and frees nghttp2's state.
/// Dropping the session without `close()` frees everything but reports nothing.
public final class HTTP2ClientSession {
    let engine: NGHTTP2Session
    public weak var delegate: (any HTTP2ClientSessionDelegate)?
    /// The connection that owns this session, if one does: told instead of `delegate`, without a
    /// weak reference (which would give the connection a side table and slow down every retain
    /// and release of it). The owner outlives the session it owns; it clears this when it closes.
    unowned(unsafe) var owner: (any HTTP2ClientSessionDelegate)?
    // SAFETY: loop-confined like the session; a momentary read or write, never held across the
    // delegate calls it guards.
    @exclusivity(unchecked) private var delivering = false

    /// Queues the connection preface and SETTINGS (push disabled) for the first output.
    public init(configuration: HTTP2SessionConfiguration = HTTP2SessionConfiguration()) throws(HTTP2Error) {
        engine = try NGHTTP2Session(role: .client, configuration: configuration)
    }

    // MARK: Bytes

    /// Processes bytes from the peer, then delivers what they produced to the delegate. Throws when
    /// the peer broke the protocol (flush ``produceOutput(into:maxBytes:)`` for the GOAWAY, then
    /// ``close()``) or the session is closed.
    public func receive(_ bytes: UnsafeRawBufferPointer) throws(HTTP2Error) {
        defer { deliverEvents() }
        try engine.receive(bytes)
    }

    /// Appends the bytes to send to `buffer` (gathered: many frames, one buffer), stopping once it
    /// holds `maxBytes`; then delivers events (a server may refuse streams as they are sent).
    public func produceOutput(into buffer: inout [UInt8], maxBytes: Int = .max) {
        engine.produceOutput(into: &buffer, limit: maxBytes)
        deliverEvents()
    }

    public var wantsRead: Bool { engine.wantsRead }
    public var wantsWrite: Bool { engine.wantsWrite }
    /// False once there is nothing more to read or write: the connection can be closed.
    public var isAlive: Bool { engine.wantsRead || engine.wantsWrite }
    /// Why the connection failed, if it did.
    public var failure: HTTP2Error? { engine.failure }

    // MARK: Streams

    /// Queues a request and returns its stream id. `token` comes back exactly once, with the response
    /// or a failure, when the stream closes. If this throws, the token is never reported.
    ///
    /// `headers` is sent as is (NO_COPY, kept alive until the stream closes); `extraHeaders` is copied
    /// now, so the buffer can be reused at once. Pseudo-headers of both go first. `body` is kept,
    /// not copied, until nghttp2 has read it.
    @discardableResult
    public func submitRequest(
        headers: HTTP2HeaderBlock?, extraHeaders: HTTP2HeaderBuffer? = nil, body: [UInt8]?, token: UInt64
    ) throws(HTTP2Error) -> Int32 {
        try engine.submitRequest(block: headers, buffer: extraHeaders, body: body, token: token)
    }

    /// Queues a request whose response is reported as it arrives: `didReceiveHead` once the final
    /// HEADERS are in, `didReceiveData` for each batch of body bytes (no `maxBodySize` applies), then
    /// `didReceive` (with an empty body) or `didFail` when the stream closes, as for any request.
    /// Cancel it with ``resetStream(_:errorCode:)``.
    ///
    /// Flow control: nghttp2 returns the window as bytes are handed to the delegate, so the peer
    /// may keep sending; a delegate that buffers must bound what it keeps.
    @discardableResult
    public func submitStreamingRequest(
        headers: HTTP2HeaderBlock?, extraHeaders: HTTP2HeaderBuffer? = nil, body: [UInt8]?, token: UInt64
    ) throws(HTTP2Error) -> Int32 {
        try engine.submitRequest(block: headers, buffer: extraHeaders, body: body, token: token, streaming: true)
    }

    /// Queues a request from a plain header list (validated; allocates: not for the hot path).
    @discardableResult
    public func submitRequest(headers: [HTTP2Header], body: [UInt8]?, token: UInt64) throws(HTTP2Error) -> Int32 {
        for header in headers {
            try header.validate()
        }
        return try engine.submitRequest(block: nil, buffer: HTTP2HeaderBuffer(headers), body: body, token: token)
    }

    /// Resets an open request's stream (default CANCEL), for example on timeout. Its token is then
    /// reported as ``HTTP2StreamError/Kind/cancelled``.
    public func resetStream(_ streamID: Int32, errorCode: HTTP2ErrorCode = .cancel) throws(HTTP2Error) {
        try engine.resetStream(streamID, errorCode: errorCode)
    }

    /// Requests whose tokens have not been reported yet, sent or still queued in nghttp2.
    public var openStreamCount: Int { engine.slots.openCount }

    /// The peer's SETTINGS_MAX_CONCURRENT_STREAMS. Before the peer's SETTINGS arrive, nghttp2 assumes
    /// 100; unlimited reads `UInt32.max`. Re-read after each `didReceiveSettings`.
    public var remoteMaxConcurrentStreams: UInt32 {
        engine.session.map { engine.remoteSettings($0).maxConcurrentStreams } ?? 0
    }

    /// How many more requests can go out now: the peer's limit minus open requests; 0 after GOAWAY,
    /// failure or close. Requests beyond it are accepted but wait inside nghttp2.
    public var availableStreams: Int { engine.availableStreams }
    public var canOpenStream: Bool { engine.availableStreams > 0 }

    /// The peer's SETTINGS as in force now (nil once closed).
    public var remoteSettings: HTTP2Settings? { engine.session.map { engine.remoteSettings($0) } }

    // MARK: Connection

    /// Queues a PING; the delegate hears `didReceivePingAck(payload)` when it comes back.
    public func submitPing(payload: UInt64 = 0) throws(HTTP2Error) {
        try engine.submitPing(payload: payload)
    }

    /// Queues GOAWAY: no new requests; open ones may finish. The session ends when they have.
    public func goAway(errorCode: HTTP2ErrorCode = .noError, debugData: [UInt8] = []) throws(HTTP2Error) {
        try engine.submitGoAway(lastStreamID: nil, errorCode: errorCode, debugData: debugData)
    }

    /// Ends the session: every open request is reported (`connectionClosed`; safe to retry if its
    /// HEADERS never left) and nghttp2's state is freed. Further calls throw `sessionClosed`.
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
            case .clientStreamClosed(let slot):
                deliverClose(slot)
            case .settings(let settings):
                (owner ?? delegate)?.session(self, didReceiveSettings: settings)
            case .goAway(let goAway):
                (owner ?? delegate)?.session(self, didReceiveGoAway: goAway)
            case .pingAck(let payload):
                (owner ?? delegate)?.session(self, didReceivePingAck: payload)
            case .responseHead(let slot):
                guard engine.slots[slot].state != .free else { break }
                let head = HTTP2Response(status: engine.slots[slot].status, headers: engine.slots[slot].headers, body: [])
                (owner ?? delegate)?.session(self, didReceiveHead: head, for: engine.slots[slot].token)
            case .responseData(let slot):
                guard engine.slots[slot].state != .free, !engine.slots[slot].body.isEmpty else { break }
                var data: [UInt8] = []
                swap(&data, &engine.slots[slot].body)
                (owner ?? delegate)?.session(self, didReceiveData: data, for: engine.slots[slot].token)
            case .requestReady, .serverStreamClosed:
                break
            }
        }
        engine.events.removeAll(keepingCapacity: true)
    }

    /// The one place a token is reported: its slot has closed.
    private func deliverClose(_ slot: Int32) {
        let token = engine.slots[slot].token
        if engine.slots[slot].complete {
            var response = engine.takeResponse(slot)
            (owner ?? delegate)?.session(self, didReceive: response, for: token)
            engine.giveBack(slot, headers: &response.headers, body: &response.body)  // released below
        } else {
            (owner ?? delegate)?.session(self, didFail: engine.streamError(slot), for: token)
        }
        engine.slots.release(slot)
    }
}
