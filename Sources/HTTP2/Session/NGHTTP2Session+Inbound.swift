import CNghttp2

// What the callbacks do. Each runs inside mem_recv or mem_send: it fills slots and records events,
// may submit frames (RST_STREAM), and never calls mem_recv/mem_send or the delegate.

extension NGHTTP2Session {
    /// The open slot nghttp2 associates with `streamID`, if any.
    @inline(__always)
    func slot(_ session: OpaquePointer, _ streamID: Int32) -> Int32? {
        if streamID == lastStreamID, streamID > 0, slots.isOpen(lastSlot, streamID: streamID) { return lastSlot }
        return lookUpSlot(session, streamID)
    }

    private func lookUpSlot(_ session: OpaquePointer, _ streamID: Int32) -> Int32? {
        let index: Int32
        if let cached = slotByStream.slot(for: streamID), slots.isOpen(cached, streamID: streamID) {
            index = cached
        } else {
            // `isOpen`, inlined, rather than a call to `StreamSlots.openSlot`: calling a method of
            // the table copied it (both its arrays retained and released) at every miss.
            guard let found = StreamSlots.index(nghttp2_session_get_stream_user_data(session, streamID)),
                slots.isOpen(found, streamID: streamID)
            else { return nil }
            index = found
            slotByStream.note(streamID, slot: index)
        }
        lastStreamID = streamID
        lastSlot = index
        return index
    }

    func beginHeaders(_ session: OpaquePointer, _ frame: UnsafePointer<nghttp2_frame>) -> Int32 {
        fieldPosition = 0
        guard role == .server, frame.pointee.hd.type == NGHTTP2.frameHeaders,
            frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST
        else { return 0 }
        let streamID = frame.pointee.hd.stream_id
        let index = slots.acquire()
        slots[index].streamID = streamID
        guard nghttp2_session_set_stream_user_data(session, streamID, StreamSlots.userData(index)) == 0 else {
            slots.release(index)
            return NGHTTP2.temporalCallbackFailure
        }
        return 0
    }

    /// What `header` found about one field, for the work it does after the slot access ends.
    /// `dropped`: taken, and a field the filter dropped that `droppedFields` may remember: a
    /// regular one the response checks accepted by its bytes alone, `:status` (its value given),
    /// or a content-length (`DroppedResponseFields.contentLength`).
    enum FieldOutcome {
        case taken
        case dropped(status: Int)
        case malformedRequest, malformedResponse, tooLarge
    }

    func header(
        _ session: OpaquePointer, _ frame: UnsafePointer<nghttp2_frame>,
        name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>
    ) -> Int32 {
        let streamID = frame.pointee.hd.stream_id
        guard let index = slot(session, streamID) else { return 0 }
        let category = frame.pointee.headers.cat
        // One access to the slot for the whole field (each `slots[index].x` was an access of its
        // own, with its own uniqueness check of the table).
        let outcome: FieldOutcome
        if repeated.fieldPosition >= 0 {  // a HEADERS frame with a provider token: maybe the remembered one
            outcome = withRepeatedAuthorization(value) { value, accepted in
                slots.withSlot(index) { slot in
                    take(name: name, value: value, category: category, acceptedBefore: accepted, into: &slot)
                }
            }
        } else {
            outcome = slots.withSlot(index) { slot in take(name: name, value: value, category: category, into: &slot) }
        }
        return finish(outcome, session, index, streamID)
    }

    /// `header` for a client session that remembers dropped fields (nghttp2 hands it the fields'
    /// buffers): a field remembered is only counted against the header list limit.
    func header(
        _ session: OpaquePointer, _ frame: UnsafePointer<nghttp2_frame>, name: OpaquePointer, value: OpaquePointer
    ) -> Int32 {
        let streamID = frame.pointee.hd.stream_id
        guard let index = slot(session, streamID) else { return 0 }
        let position = fieldPosition
        fieldPosition = position + 1
        if let remembered = droppedFields.field(at: position, name: name, value: value) {
            let laterBlock = frame.pointee.headers.cat == NGHTTP2_HCAT_HEADERS
            let outcome: FieldOutcome = slots.withSlot(index) { slot in
                var listSize = slot.headerListSize + remembered.listSize
                switch remembered.status {
                case 0:
                    slot.responseCheck.repeatedField()
                case DroppedResponseFields.contentLength:
                    let bytes = nghttp2_rcbuf_get_buf(value)
                    let value = UnsafeBufferPointer(start: bytes.base, count: bytes.base == nil ? 0 : bytes.len)
                    switch slot.responseCheck.repeatedContentLength(value) {
                    case .keep: listSize += value.count
                    case .drop: return .taken
                    case .malformed: return .malformedResponse
                    }
                default:
                    if case .malformed = slot.responseCheck.repeatedStatus(remembered.status, laterBlock: laterBlock) {
                        return .malformedResponse
                    }
                }
                guard listSize <= configuration.maxHeaderListSize else { return .tooLarge }
                slot.headerListSize = listSize
                if remembered.status > 0 { Self.noteStatus(remembered.status, in: &slot) }
                return .taken
            }
            return finish(outcome, session, index, streamID)
        }
        let nameBytes = nghttp2_rcbuf_get_buf(name)
        let valueBytes = nghttp2_rcbuf_get_buf(value)
        let nameBuffer = UnsafeBufferPointer(start: nameBytes.base, count: nameBytes.base == nil ? 0 : nameBytes.len)
        let valueBuffer = UnsafeBufferPointer(
            start: valueBytes.base, count: valueBytes.base == nil ? 0 : valueBytes.len)
        let category = frame.pointee.headers.cat
        let outcome = slots.withSlot(index) { slot in
            take(name: nameBuffer, value: valueBuffer, category: category, into: &slot)
        }
        if case .dropped(let status) = outcome {
            let valueSize = status == DroppedResponseFields.contentLength ? 0 : valueBuffer.count
            droppedFields.remember(
                at: position, name: name, value: value, listSize: nameBuffer.count + valueSize + 32, status: status)
        }
        return finish(outcome, session, index, streamID)
    }

    /// What nghttp2 hears about a field `take` looked at.
    @inline(__always)
    private func finish(_ outcome: FieldOutcome, _ session: OpaquePointer, _ index: Int32, _ streamID: Int32) -> Int32 {
        switch outcome {
        case .taken, .dropped:
            return 0
        case .malformedRequest:
            rejectRequest(session, index)
            return NGHTTP2.temporalCallbackFailure
        case .malformedResponse:
            reject(session, index, as: .malformedResponse)
            return NGHTTP2.temporalCallbackFailure
        case .tooLarge:
            slots[index].localReset = .headerListTooLarge
            nghttp2_submit_rst_stream(session, NGHTTP2.flagNone, streamID, HTTP2ErrorCode.enhanceYourCalm.rawValue)
            return NGHTTP2.temporalCallbackFailure
        }
    }

    /// Checks one field and keeps it in `slot` (or drops it); touches nothing but `slot`.
    /// `acceptedBefore`: the same field passed the request checks before (a repeated provider token).
    @inline(__always)
    private func take(
        name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>, category: nghttp2_headers_category,
        acceptedBefore: Bool = false, into slot: inout StreamSlot
    ) -> FieldOutcome {
        if acceptedBefore {
            slot.requestCheck.repeatedField()
        } else if checksRequests {
            switch slot.requestCheck.field(name: name, value: value, trailer: category != NGHTTP2_HCAT_REQUEST) {
            case .keep: break
            case .malformed: return .malformedRequest
            }
        } else if checksResponses {
            switch slot.responseCheck.field(name: name, value: value, laterBlock: category == NGHTTP2_HCAT_HEADERS) {
            case .keep: break
            case .drop: return .taken
            case .malformed: return .malformedResponse
            }
        }
        let listSize = slot.headerListSize + name.count + value.count + 32
        guard listSize <= configuration.maxHeaderListSize else { return .tooLarge }
        slot.headerListSize = listSize
        if role == .client {
            // Only a 7-byte name can be `:status`: fields of other lengths skip the call.
            var status = 0
            if name.count == 7, let parsed = Self.status(name: name, value: value) {
                Self.noteStatus(parsed, in: &slot)
                status = parsed
            }
            if filtersResponseHeaders {
                guard keptHeaderLengths & HTTP2HeaderNameSet.lengthBit(name.count) != 0, keptHeaders.contains(name)
                else {
                    guard remembersDroppedFields else { return .taken }
                    if status != 0 { return .dropped(status: status) }
                    return Self.rememberable(name).map { .dropped(status: $0) } ?? .taken
                }
            }
        }
        slot.headers.append(name: name, value: value)
        return .taken
    }

    /// Client: a response's `:status` (a final one replaces an interim one, and its fields).
    @inline(__always)
    private static func noteStatus(_ status: Int, in slot: inout StreamSlot) {
        if (100..<200).contains(slot.status) {
            slot.headers.reset(keepingAtMost: .max)  // drop the interim response's fields
        }
        slot.status = status
    }

    /// How `DroppedResponseFields` remembers a regular field the checks accepted: 0, as one whose
    /// name means nothing to them; `DroppedResponseFields.contentLength`; nil, not at all.
    private static func rememberable(_ name: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = name.first, first != UInt8(ascii: ":") else { return nil }
        switch RequestFieldCheck.specialField(name) {
        case .none: return 0
        case .contentLength: return DroppedResponseFields.contentLength
        case .host, .te, .connectionSpecific: return nil
        }
    }

    /// The value of a `:status` field as a number (nghttp2 has checked it is three digits).
    static func status(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> Int? {
        // Byte by byte: comparing with a String's UTF8View goes through generic collection code.
        guard name.count == 7, value.count == 3, name[0] == UInt8(ascii: ":"), name[1] == UInt8(ascii: "s"),
            name[2] == UInt8(ascii: "t"), name[3] == UInt8(ascii: "a"), name[4] == UInt8(ascii: "t"),
            name[5] == UInt8(ascii: "u"), name[6] == UInt8(ascii: "s")
        else { return nil }
        var status = 0
        for digit in value {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            status = status * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return status
    }

    func dataChunk(_ session: OpaquePointer, _ streamID: Int32, _ data: UnsafeBufferPointer<UInt8>) -> Int32 {
        guard let index = slot(session, streamID), slots[index].localReset == nil else { return 0 }
        if checksRequests, !slots[index].requestCheck.data(count: data.count) {
            rejectRequest(session, index)  // more than content-length
            return 0
        }
        if checksResponses, !slots[index].responseCheck.data(count: data.count) {
            reject(session, index, as: .malformedResponse)  // before the final response, or past content-length
            return 0
        }
        guard !slots[index].discardingBody else { return 0 }
        if role == .client, slots[index].streaming {
            if slots[index].body.isEmpty { events.append(.responseData(slot: index)) }
            slots[index].body.append(contentsOf: data)
            return 0
        }
        guard slots[index].body.count + data.count <= configuration.maxBodySize else {
            switch role {
            case .client:
                slots[index].localReset = .bodyTooLarge
                nghttp2_submit_rst_stream(session, NGHTTP2.flagNone, streamID, HTTP2ErrorCode.cancel.rawValue)
            case .server:
                slots[index].discardingBody = true
                slots[index].body = []
                deliverRequest(index)
            }
            return 0
        }
        slots[index].body.append(contentsOf: data)
        return 0
    }

    func frameReceived(_ session: OpaquePointer, _ frame: UnsafePointer<nghttp2_frame>) -> Int32 {
        let header = frame.pointee.hd
        switch header.type {
        case NGHTTP2.frameData, NGHTTP2.frameHeaders:
            // The stream's slot, looked up once: nothing below frees or reassigns it.
            guard let index = slot(session, header.stream_id) else { return 0 }
            if splicesHeaders, header.type == NGHTTP2.frameHeaders {
                sentHeadersStreamID = header.stream_id
                sentHeadersSlot = index
            }
            if checksResponses, slots[index].localReset == nil, !responseFrameIsWellFormed(index, frame) {
                reject(session, index, as: .malformedResponse)
                return 0
            }
            if role == .client, header.type == NGHTTP2.frameHeaders {
                noteResponseHead(index)
            }
            if checksRequests, slots[index].localReset == nil, !requestFrameIsWellFormed(index, frame) {
                rejectRequest(session, index)
                return 0
            }
            guard header.flags & NGHTTP2.flagEndStream != 0, slots[index].localReset == nil else { return 0 }
            slots[index].complete = true
            if role == .server {
                deliverRequest(index)
            }
        case NGHTTP2.frameSettings where header.flags & NGHTTP2.flagAck == 0:
            events.append(.settings(remoteSettings(session)))
        case NGHTTP2.frameGoAway:
            let goAway = frame.pointee.goaway
            let debugData = goAway.opaque_data.map {
                Array(UnsafeBufferPointer(start: $0, count: goAway.opaque_data_len))
            }
            events.append(
                .goAway(
                    HTTP2GoAway(
                        lastStreamID: goAway.last_stream_id, errorCode: HTTP2ErrorCode(rawValue: goAway.error_code),
                        debugData: debugData ?? [])))
        case NGHTTP2.framePing where header.flags & NGHTTP2.flagAck != 0:
            let payload = withUnsafeBytes(of: frame.pointee.ping.opaque_data) { $0.loadUnaligned(as: UInt64.self) }
            events.append(.pingAck(UInt64(bigEndian: payload)))
        default:
            break
        }
        return 0
    }

    /// Server, checking requests itself: whether a HEADERS or DATA frame leaves the request well
    /// formed (the request's header block complete, trailers that end the stream, a body that
    /// matches content-length at its end).
    private func requestFrameIsWellFormed(_ index: Int32, _ frame: UnsafePointer<nghttp2_frame>) -> Bool {
        let header = frame.pointee.hd
        if header.type == NGHTTP2.frameHeaders {
            if frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST {
                guard slots[index].requestCheck.headersComplete() else { return false }
            } else if header.flags & NGHTTP2.flagEndStream == 0 {
                return false  // trailers must end the stream
            }
        }
        return header.flags & NGHTTP2.flagEndStream == 0 || slots[index].requestCheck.endStream()
    }

    /// Client, checking responses itself: whether a HEADERS or DATA frame leaves the response well
    /// formed (`:status` in a response's block, trailers that end the stream, a final response and
    /// a body that matches content-length at its end).
    private func responseFrameIsWellFormed(_ index: Int32, _ frame: UnsafePointer<nghttp2_frame>) -> Bool {
        let header = frame.pointee.hd
        let endStream = header.flags & NGHTTP2.flagEndStream != 0
        guard header.type == NGHTTP2.frameHeaders else {
            return !endStream || slots[index].responseCheck.endStream()
        }
        let laterBlock = frame.pointee.headers.cat == NGHTTP2_HCAT_HEADERS
        return slots[index].responseCheck.headersComplete(laterBlock: laterBlock, endStream: endStream)
    }

    /// Server: resets a request HTTP/2 calls malformed (RFC 9113 8.1.1), as nghttp2 would.
    private func rejectRequest(_ session: OpaquePointer, _ index: Int32) {
        reject(session, index, as: .malformedRequest)
    }

    /// Resets a stream whose message HTTP/2 calls malformed (RFC 9113 8.1.1) with PROTOCOL_ERROR, as nghttp2 would.
    private func reject(_ session: OpaquePointer, _ index: Int32, as reason: StreamSlot.LocalReset) {
        slots[index].localReset = reason
        nghttp2_submit_rst_stream(
            session, NGHTTP2.flagNone, slots[index].streamID, HTTP2ErrorCode.protocolError.rawValue)
    }

    /// Server: hands a request over once (complete, or over the body limit).
    private func deliverRequest(_ index: Int32) {
        guard !slots[index].delivered else { return }
        slots[index].delivered = true
        events.append(.requestReady(slot: index))
    }

    func streamClosed(_ session: OpaquePointer, _ streamID: Int32, _ errorCode: UInt32) -> Int32 {
        guard let index = slot(session, streamID) else { return 0 }
        streamDidClose(index, code: errorCode)
        return 0
    }

    func frameSent(_ session: OpaquePointer, _ frame: UnsafePointer<nghttp2_frame>) -> Int32 {
        let header = frame.pointee.hd
        // A HEADERS frame's slot, looked up once, when it is needed below.
        let headersSlot =
            header.type == NGHTTP2.frameHeaders && (splicesHeaders || role == .client)
            ? slot(session, header.stream_id) : nil
        if splicesHeaders, let index = headersSlot {
            sentHeadersStreamID = header.stream_id
            sentHeadersSlot = index
        }
        switch header.type {
        case NGHTTP2.frameHeaders where role == .client && frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST:
            if let index = headersSlot {
                slots[index].headersSent = true
            }
        case NGHTTP2.frameGoAway:
            if localGoAwaysPending > 0 {
                localGoAwaysPending -= 1
            } else if frame.pointee.goaway.error_code != HTTP2ErrorCode.noError.rawValue {
                fail(connectionError(frame.pointee.goaway), fatal: false)
            }
        default:
            break
        }
        // RFC 9113 section 8.1: a server that answered before the request ended asks the client to
        // stop sending it (only happens for requests over the body limit).
        if role == .server, header.flags & NGHTTP2.flagEndStream != 0,
            header.type == NGHTTP2.frameData || header.type == NGHTTP2.frameHeaders,
            let index = slot(session, header.stream_id), !slots[index].complete
        {
            nghttp2_submit_rst_stream(session, NGHTTP2.flagNone, header.stream_id, HTTP2ErrorCode.noError.rawValue)
        }
        return 0
    }

    /// The error for a GOAWAY nghttp2 sent on its own: the peer broke the protocol.
    private func connectionError(_ goAway: nghttp2_goaway) -> HTTP2Error {
        var reason = ""
        if let data = goAway.opaque_data, goAway.opaque_data_len > 0 {
            reason = String(decoding: UnsafeBufferPointer(start: data, count: goAway.opaque_data_len), as: UTF8.self)
        }
        if reason.isEmpty {
            reason = lastLibraryMessage
        }
        return HTTP2Error(.connectionError(code: HTTP2ErrorCode(rawValue: goAway.error_code), reason: reason))
    }

    /// Request bodies up to this size (the frame size every peer allows) are sent whole or not yet.
    static let wholeBodyLimit = 16_384

    func readBody(
        _ streamID: Int32, _ sourcePointer: UnsafeMutableRawPointer?, into buffer: UnsafeMutablePointer<UInt8>,
        length: Int, flags: UnsafeMutablePointer<UInt32>
    ) -> Int {
        guard let index = StreamSlots.index(sourcePointer), slots.isOpen(index, streamID: streamID) else {
            return Int(NGHTTP2.temporalCallbackFailure)
        }
        let offset = slots[index].outgoingOffset
        let remaining = slots[index].outgoingBody.count - offset
        let count = min(length, remaining)
        if slots[index].streaming {
            return readStreamingBody(index, count: count, into: buffer, flags: flags)
        }
        // A request body that fits one frame but not the connection's window waits for the window
        // instead of going out in part: nghttp2 reschedules a stream that sent part of its data
        // behind every stream opened since (a penalty on its scheduling cycle that new streams do
        // not pay), so under a steady flow of new requests its rest never left until the flow
        // stopped: one request's latency was the whole run. (The wait ends with the next
        // WINDOW_UPDATE: servers credit the window as they consume, well before it is empty, so
        // the bytes still in flight bring one.)
        if count < remaining, remaining <= Self.wholeBodyLimit, role == .client, let session,
            nghttp2_session_get_remote_window_size(session) < remaining
        {
            waitingForWindow.append(streamID)
            return Int(NGHTTP2.deferred)
        }
        slots[index].outgoingBody.withUnsafeBufferPointer { body in
            if let base = body.baseAddress, count > 0 {
                buffer.update(from: base + offset, count: count)
            }
        }
        slots[index].outgoingOffset = offset + count
        if offset + count == slots[index].outgoingBody.count {
            flags.pointee |= NGHTTP2.dataFlagEOF
            slots[index].outgoingBody = []
            slots[index].outgoingOffset = 0
        }
        return count
    }

    func remoteSettings(_ session: OpaquePointer) -> HTTP2Settings {
        HTTP2Settings(
            headerTableSize: nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_HEADER_TABLE_SIZE),
            enablePush: nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_ENABLE_PUSH) != 0,
            maxConcurrentStreams: nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS),
            initialWindowSize: nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE),
            maxFrameSize: nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_MAX_FRAME_SIZE),
            maxHeaderListSize: nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE))
    }
}
