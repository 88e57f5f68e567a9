import CNghttp2

// The sans-I/O core under HTTP2ClientSession and HTTP2ServerSession: the one place that owns an
// `nghttp2_session` (1.52: mem_recv / mem_send, data providers). Bytes in, bytes out, no sockets.
//
// Session states:
//
//   init ──> running ──(GOAWAY sent or received)──> going away ──(no streams left)──> done
//               │                                                                   (!wantsRead && !wantsWrite)
//               └──(peer breaks the protocol: nghttp2 queues GOAWAY)──> failed ──(GOAWAY flushed)──> done
//   any ──close()──> closed: open streams reported, nghttp2 session deleted
//
// Stream slots (StreamSlots): acquired at submit (client) or first HEADERS (server), `.open` while
// nghttp2 knows the stream, `.closed` from on_stream_close until the close event is delivered, then
// freed. nghttp2 holds `slot index + 1` as stream user data; no per-request object is allocated.
//
//   client: submit ─> queued ─(HEADERS sent)─> open ─(END_STREAM in)─> complete ─┐
//              └────────── refused / reset / GOAWAY above last id ───────────────┴─> on_stream_close
//                                                                                    = token reported, once
//
// Invariants:
// - Callbacks (NGHTTP2Session+Callbacks.swift) only record: they fill slots and append to `events`;
//   the public session delivers events after mem_recv/mem_send return, so delegates may call back in.
// - A client token is reported from one place, the close of its slot: on_stream_close, or close()
//   for streams nghttp2 never closed (it does not call back when the session is deleted).
// - Nothing throws across C. Callbacks fail (NGHTTP2_ERR_CALLBACK_FAILURE, which makes mem_recv or
//   mem_send fail and the session dead) only when nghttp2 hands them NULL; limits reset one stream.
// - mem_send output is copied at once (its pointer dies at the next call).
// - nghttp2 reports most protocol errors by queueing GOAWAY, not by failing mem_recv; `receive`
//   drains mem_send into `staged` so it sees that GOAWAY (on_frame_send) and can throw.

/// The one object that owns an `nghttp2_session`. Loop-confined: not thread-safe, not Sendable.
final class NGHTTP2Session {
    enum Role {
        case client
        case server
    }

    let role: Role
    let configuration: HTTP2SessionConfiguration
    /// Server: requests are checked by ``RequestFieldCheck`` (nghttp2's HTTP messaging is off).
    let checksRequests: Bool
    /// Client: responses are checked by ``ResponseFieldCheck`` (nghttp2's HTTP messaging is off).
    let checksResponses: Bool
    /// nil once closed. (Unchecked exclusivity, like `failure` and `isDead`: read for every
    /// submit; see the SAFETY note below.)
    @exclusivity(unchecked) private(set) var session: OpaquePointer?
    // SAFETY (`@exclusivity(unchecked)` below): these are touched in every callback, where dynamic
    // exclusivity checks would be a call per access, many per request. The session is confined to one
    // thread, and no access to them is held across a call into nghttp2 or the delegate, so
    // accesses cannot overlap.
    @exclusivity(unchecked) var slots = StreamSlots()
    /// Recorded by callbacks, delivered and emptied by the public session.
    @exclusivity(unchecked) var events: [SessionEvent] = []
    /// The stream `slot(_:_:)` resolved last and its slot: a stream's callbacks come in runs (a
    /// HEADERS frame's fields, its frame-received, its DATA, its close), so this spares nghttp2's
    /// stream map lookup for most of them. Stream ids are never reused within a session, and the
    /// slot is checked to be open with that id, so a stale entry is never trusted.
    @exclusivity(unchecked) var lastStreamID: Int32 = 0
    @exclusivity(unchecked) var lastSlot: Int32 = 0
    /// Client: where `slot(_:_:)` looks when `lastStreamID` is another stream, before nghttp2's
    /// stream map (a call into the library and a hash lookup, for one stream's callbacks in three).
    @exclusivity(unchecked) var slotByStream: StreamSlotCache
    /// Client: whether response headers are filtered, and the filter's length mask, copied out of
    /// the configuration so most fields are dropped without touching the set (no retain per field).
    let filtersResponseHeaders: Bool
    let keptHeaderLengths: UInt64
    /// The set itself, not optional: a `let` the callback borrows (unwrapping the configuration's
    /// optional copied it, two retains and releases per lookup).
    let keptHeaders: HTTP2HeaderNameSet
    /// Client, checking responses itself and filtering them: fields dropped before, known again by
    /// their buffers (`DroppedResponseFields`; nghttp2 then hands fields over as buffers).
    let remembersDroppedFields: Bool
    @exclusivity(unchecked) var droppedFields = DroppedResponseFields()
    /// The position in its header block of the next field nghttp2 hands over (reset as each
    /// HEADERS frame begins), where `droppedFields` looks for it.
    @exclusivity(unchecked) var fieldPosition = 0
    /// Output drained during `receive`, handed out first by the next `produceOutput`.
    @exclusivity(unchecked) private var staged: [UInt8] = []
    /// The connection has failed (protocol error, fatal nghttp2 error); `receive` throws it.
    @exclusivity(unchecked) private(set) var failure: HTTP2Error?
    /// nghttp2 returned a fatal error: it must not be called again except to be deleted.
    @exclusivity(unchecked) private var isDead = false
    /// A request was submitted with a pre-encoded field, or a request or response with plain values
    /// (NGHTTP2Session+Splice.swift), so outgoing HEADERS frames are looked at.
    @exclusivity(unchecked) var splicesHeaders = false
    /// Room for each slot's plain values, as string literals (NGHTTP2Session+PlainValues.swift).
    @exclusivity(unchecked) var plainLiterals = PlainLiteralRooms()
    /// Client: the names of `configuration.plainNamesIndexedOnce` not yet sent indexed on this
    /// connection (empty once they all were, or without the setting).
    @exclusivity(unchecked) var plainNamesToIndex: [[UInt8]] = []
    /// The stream of the HEADERS frame nghttp2 reported sent last, and its slot: nghttp2 reports a
    /// frame sent (and closes a stream its END_STREAM ends) before mem_send hands the frame out, so
    /// by then a server's answered stream may be unknown to nghttp2.
    @exclusivity(unchecked) var sentHeadersStreamID: Int32 = 0
    @exclusivity(unchecked) var sentHeadersSlot: Int32 = 0
    /// The last pre-encoded field a request was submitted with: its placeholder is what a HEADERS
    /// frame with nothing to put in must not carry (see NGHTTP2Session+Splice.swift).
    @exclusivity(unchecked) var lastPreEncodedField: HPACKPreEncodedField?
    /// Server: the framing followed and the provider token remembered (NGHTTP2Session+RepeatedAuthorization.swift).
    @exclusivity(unchecked) var repeated = RepeatedAuthorization()
    /// The remembered token's value, and a HEADERS frame rewritten to stand in for it (apart from
    /// `repeated`: the header callback reads the one while nghttp2 reads the other).
    @exclusivity(unchecked) var repeatedDecoded: [UInt8] = []
    @exclusivity(unchecked) var inboundScratch: [UInt8] = []
    /// Client: streams whose whole body did not fit the connection's send window, deferred by the
    /// data provider and resumed, oldest first, when the window grows (see `readBody`).
    @exclusivity(unchecked) var waitingForWindow: [Int32] = []
    /// GOAWAY frames this side asked for that nghttp2 has not yet sent (the others are nghttp2's own).
    var localGoAwaysPending = 0
    /// Server: the lowest last-stream-id of the GOAWAYs this side queued. Requests above it are not
    /// processed (they are refused), even those already received and waiting to be delivered.
    var refusingAbove: Int32 = .max
    /// nghttp2's last error message (error_callback2), for a GOAWAY that carries no reason.
    var lastLibraryMessage = ""
    /// Reused nghttp2_nv array for submits, and ":status" plus three digits for responses.
    /// (Unchecked exclusivity: used only inside one submit at a time, see the SAFETY note above.)
    @exclusivity(unchecked) var fieldScratch = UnsafeMutablePointer<nghttp2_nv>.allocate(capacity: 16)
    @exclusivity(unchecked) var fieldCapacity = 16
    let statusScratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 12)
    /// nghttp2's memory (freed blocks reused); outlives the nghttp2 session, which deinit deletes first.
    private let allocator = NGHTTP2Allocator()

    init(role: Role, configuration: HTTP2SessionConfiguration) throws(HTTP2Error) {
        self.role = role
        self.configuration = configuration
        slotByStream = StreamSlotCache(capacity: role == .client ? StreamSlotCache.clientCapacity : 0)
        checksRequests = role == .server && !configuration.libraryChecksRequests
        checksResponses = role == .client && !configuration.libraryChecksResponses
        filtersResponseHeaders = role == .client && configuration.keptResponseHeaders != nil
        keptHeaderLengths = configuration.keptResponseHeaders?.lengthMask ?? 0
        keptHeaders = configuration.keptResponseHeaders ?? HTTP2HeaderNameSet([])
        remembersDroppedFields = checksResponses && filtersResponseHeaders
        if role == .client, let names = configuration.plainNamesIndexedOnce?.names {
            plainNamesToIndex = names.map { Array($0.utf8) }.filter { $0.first != UInt8(ascii: ":") }
        }
        statusScratch.initialize(repeating: 0, count: 12)
        for (offset, byte) in ":status".utf8.enumerated() {
            statusScratch[offset] = byte
        }
        try Self.validate(configuration)
        guard let callbacks = remembersDroppedFields ? NGHTTP2Callbacks.withFieldBuffers : NGHTTP2Callbacks.shared
        else {
            throw HTTP2Error.library("nghttp2_session_callbacks_new", Int(NGHTTP2_ERR_NOMEM.rawValue))
        }
        var option: OpaquePointer?
        let optionResult = nghttp2_option_new(&option)
        guard optionResult == 0, let option else { throw HTTP2Error.library("nghttp2_option_new", Int(optionResult)) }
        defer { nghttp2_option_del(option) }
        if !configuration.acknowledgesPings { nghttp2_option_set_no_auto_ping_ack(option, 1) }
        // A server checks requests itself (RequestFieldCheck), a client responses
        // (ResponseFieldCheck): nghttp2's rules, at a lower cost.
        if checksRequests || checksResponses { nghttp2_option_set_no_http_messaging(option, 1) }
        // A server keeps closed streams only for the priority tree, which RFC 9113 deprecates and
        // nothing here uses: dropping them at once saves bookkeeping per request.
        if role == .server { nghttp2_option_set_no_closed_streams(option, 1) }
        var created: OpaquePointer?
        let userData = Unmanaged.passUnretained(self).toOpaque()
        var mem = allocator.mem
        let result =
            role == .client
            ? nghttp2_session_client_new3(&created, callbacks, userData, option, &mem)
            : nghttp2_session_server_new3(&created, callbacks, userData, option, &mem)
        guard result == 0, let created else { throw HTTP2Error.library("nghttp2_session_new", Int(result)) }
        session = created
        try submitInitialSettings(created)
    }

    deinit {
        if let session {
            nghttp2_session_del(session)
        }
        droppedFields.removeAll()  // while `allocator`, which frees the buffers, is alive
        fieldScratch.deallocate()
        statusScratch.deallocate()
        plainLiterals.deallocate()
    }

    private static func validate(_ configuration: HTTP2SessionConfiguration) throws(HTTP2Error) {
        let maxWindow = UInt32(Int32.max)
        guard configuration.initialWindowSize <= maxWindow, configuration.connectionWindowSize <= maxWindow else {
            throw HTTP2Error(.invalidArgument("window sizes are at most 2^31-1 (RFC 9113 section 6.9.1)"))
        }
        guard configuration.maxHeaderListSize > 0, configuration.maxBodySize >= 0 else {
            throw HTTP2Error(.invalidArgument("maxHeaderListSize must be positive and maxBodySize not negative"))
        }
    }

    private func submitInitialSettings(_ session: OpaquePointer) throws(HTTP2Error) {
        var entries = [
            Self.entry(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, configuration.initialWindowSize),
            Self.entry(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE, UInt32(clamping: configuration.maxHeaderListSize)),
        ]
        switch role {
        case .client:
            entries.append(Self.entry(NGHTTP2_SETTINGS_ENABLE_PUSH, 0))
        case .server:
            entries.append(Self.entry(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, configuration.maxConcurrentStreams))
        }
        let result = nghttp2_submit_settings(session, NGHTTP2.flagNone, entries, entries.count)
        guard result == 0 else { throw HTTP2Error.library("nghttp2_submit_settings", Int(result)) }
        if configuration.connectionWindowSize > 65_535 {
            let window = Int32(configuration.connectionWindowSize)
            let result = nghttp2_session_set_local_window_size(session, NGHTTP2.flagNone, 0, window)
            guard result == 0 else { throw HTTP2Error.library("nghttp2_session_set_local_window_size", Int(result)) }
        }
    }

    static func entry(_ id: nghttp2_settings_id, _ value: UInt32) -> nghttp2_settings_entry {
        nghttp2_settings_entry(settings_id: Int32(id.rawValue), value: value)
    }

    // MARK: Bytes in, bytes out

    /// Feeds bytes read from the peer to nghttp2; callbacks record events. Throws when the peer broke
    /// the protocol (the GOAWAY nghttp2 queued is in the next output) or nghttp2 failed.
    func receive(_ bytes: UnsafeRawBufferPointer) throws(HTTP2Error) {
        if let failure { throw failure }
        guard let session, !isDead else { throw HTTP2Error(.sessionClosed) }
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        if checksRequests {
            try receiveFollowingFrames(session, base, bytes.count)
        } else {
            try feed(session, base, bytes.count)
        }
        if !waitingForWindow.isEmpty { resumeWaitingForWindow(session) }
        drain(into: &staged, limit: .max)
        if let failure { throw failure }
    }

    /// Hands `count` bytes at `base` to nghttp2.
    func feed(_ session: OpaquePointer, _ base: UnsafePointer<UInt8>, _ count: Int) throws(HTTP2Error) {
        var offset = 0
        while offset < count {
            let consumed = nghttp2_session_mem_recv(session, base + offset, count - offset)
            if consumed < 0 {
                let error = HTTP2Error.library("nghttp2_session_mem_recv", consumed)
                fail(error, fatal: true)
                throw error
            }
            guard consumed > 0 else { break }
            offset += consumed
        }
    }

    /// Hands the bodies `readBody` deferred back to nghttp2, oldest first, once the connection's
    /// window has room (a stream closed meanwhile is refused by nghttp2 and forgotten).
    private func resumeWaitingForWindow(_ session: OpaquePointer) {
        guard nghttp2_session_get_remote_window_size(session) > 0 else { return }
        let streams = waitingForWindow
        waitingForWindow.removeAll(keepingCapacity: true)
        for streamID in streams { _ = nghttp2_session_resume_data(session, streamID) }
    }

    /// Appends what nghttp2 wants to send to `buffer`, stopping once it holds `limit` bytes.
    func produceOutput(into buffer: inout [UInt8], limit: Int) {
        if !staged.isEmpty {
            if buffer.isEmpty {
                swap(&buffer, &staged)
            } else {
                buffer.append(contentsOf: staged)
                staged.removeAll(keepingCapacity: true)
            }
        }
        drain(into: &buffer, limit: limit)
    }

    private func drain(into buffer: inout [UInt8], limit: Int) {
        guard let session, !isDead else { return }
        while buffer.count < limit {
            var data: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(session, &data)
            if count < 0 {
                fail(HTTP2Error.library("nghttp2_session_mem_send", count), fatal: true)
                return
            }
            guard count > 0, let data else { return }
            if splicesHeaders, count > 9, data[3] == NGHTTP2.frameHeaders,
                appendSplicingHeaders(data, count, to: &buffer)
            {
                if isDead { return }
                continue
            }
            buffer.append(contentsOf: UnsafeBufferPointer(start: data, count: count))
        }
    }

    var wantsRead: Bool {
        guard let session, !isDead, failure == nil else { return false }
        return nghttp2_session_want_read(session) != 0
    }

    var wantsWrite: Bool {
        guard !staged.isEmpty else {
            guard let session, !isDead else { return false }
            return nghttp2_session_want_write(session) != 0
        }
        return true
    }

    func fail(_ error: HTTP2Error, fatal: Bool) {
        if failure == nil {
            failure = error
        }
        if fatal {
            isDead = true
        }
    }

    /// The session for a submit, or why there is none.
    func liveSession() throws(HTTP2Error) -> OpaquePointer {
        if let failure { throw failure }
        guard let session, !isDead else { throw HTTP2Error(.sessionClosed) }
        return session
    }

    /// Reports every open stream closed (`sessionClosed`) and deletes the nghttp2 session.
    func close() {
        guard let session else { return }
        for index in slots.openIndexes {
            slots[index].localReset = slots[index].localReset ?? .sessionClosed
            streamDidClose(index, code: HTTP2ErrorCode.cancel.rawValue)
        }
        nghttp2_session_del(session)
        self.session = nil
        droppedFields.removeAll()
        staged = []
    }

    /// The one funnel for a stream's end: from on_stream_close, or from `close()`.
    func streamDidClose(_ index: Int32, code: UInt32) {
        slots.markClosed(index, code: code)
        switch role {
        case .client:
            events.append(.clientStreamClosed(slot: index))
        case .server:
            if slots[index].delivered {
                events.append(.serverStreamClosed(slot: index))
            } else {
                slots.release(index)
            }
        }
    }
}
