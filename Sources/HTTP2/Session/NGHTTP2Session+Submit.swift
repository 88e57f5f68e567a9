import CNghttp2

// Submitting frames: requests and responses (headers laid out in a reused nghttp2_nv array, body
// read by a data provider from the stream's slot), RST_STREAM, GOAWAY, SETTINGS, PING.

extension NGHTTP2Session {
    /// Client: queues a request; its token is reported exactly once when the stream closes.
    /// `streaming`: the response is reported as it arrives (head, then body chunks), not only at the end.
    func submitRequest(
        block: HTTP2HeaderBlock?, buffer: HTTP2HeaderBuffer?, body: [UInt8]?, token: UInt64, streaming: Bool = false
    ) throws(HTTP2Error) -> Int32 {
        let session = try liveSession()
        guard role == .client, nghttp2_session_check_request_allowed(session) != 0 else {
            throw HTTP2Error(.requestNotAllowed)
        }
        let index = slots.acquire()
        slots[index].token = token
        slots[index].streaming = streaming
        slots[index].headerBlock = block
        let userData = StreamSlots.userData(index)
        let hasBody = !(body?.isEmpty ?? true)
        if let body, hasBody {
            slots[index].outgoingBody = body
        }
        var method = SpecialMethod.other
        let streamID = withFields(block: block, buffer: buffer, status: nil, slot: index) { fields, count in
            if checksResponses { method = Self.specialMethod(fields, count) }
            prepareSplices(block: block, buffer: buffer, fields, count, slot: index)
            guard hasBody else { return nghttp2_submit_request(session, nil, fields, count, nil, userData) }
            var provider = nghttp2_data_provider(
                source: nghttp2_data_source(ptr: userData), read_callback: readOutgoingBody)
            return nghttp2_submit_request(session, nil, fields, count, &provider, userData)
        }
        guard streamID > 0 else {
            slots.release(index)
            throw HTTP2Error.library("nghttp2_submit_request", Int(streamID))
        }
        slots[index].streamID = streamID
        slotByStream.note(streamID, slot: index)
        slots[index].responseCheck.requestIsHead = method == .head
        slots[index].responseCheck.requestIsConnect = method == .connect
        return streamID
    }

    enum SpecialMethod { case other, head, connect }

    /// A request whose block has a pre-encoded field goes to `appendSplicingHeaders` when its header
    /// block cannot be split into CONTINUATION frames (nghttp2 splits at 16,384 bytes; a bound on
    /// the block's size is checked); otherwise nghttp2 is given the real field.
    private func prepareSplices(
        block: HTTP2HeaderBlock?, buffer: HTTP2HeaderBuffer?, _ fields: UnsafePointer<nghttp2_nv>, _ count: Int,
        slot index: Int32
    ) {
        guard let block, let field = block.preEncoded else { return }
        if lastPreEncodedField !== field { lastPreEncodedField = field }
        // A representation is at most its name, its value and 8 bytes of prefix and lengths (for
        // names and values under 16,384 bytes); 8 more for a table size update.
        let bound = block.byteCount + (buffer?.byteCount ?? 0) + 8 * count + 8 + field.encoded.count
        // The real field when the block might be split; should it not be found (it always is), the
        // splice takes over and fails the session rather than send the placeholder.
        if bound > Self.minimumMaxFrameSize, submitRealField(field, of: block, fields, count) {
            slots[index].realFieldSubmitted = true
            return
        }
        splicesHeaders = true
    }

    /// Puts the block's real field where its placeholder is in `fieldScratch`; false if no field
    /// there is the placeholder.
    @discardableResult
    func submitRealField(
        _ field: HPACKPreEncodedField, of block: HTTP2HeaderBlock, _ fields: UnsafePointer<nghttp2_nv>, _ count: Int
    ) -> Bool {
        for position in 0..<count where fields[position].value == block.placeholderValue {
            fieldScratch[position].value = UnsafeMutablePointer(mutating: field.value.baseAddress)
            fieldScratch[position].valuelen = field.value.count
            return true
        }
        return false
    }

    /// Whether the request's `:method` (among its leading pseudo-headers) is HEAD or CONNECT, whose
    /// responses HTTP/2 checks differently.
    static func specialMethod(_ fields: UnsafePointer<nghttp2_nv>, _ count: Int) -> SpecialMethod {
        for index in 0..<count {
            let field = fields[index]
            guard field.namelen > 0, field.name[0] == UInt8(ascii: ":") else { break }
            let name = UnsafeBufferPointer(start: field.name, count: field.namelen)
            guard RequestFieldCheck.equals(name, ":method") else { continue }
            let value = UnsafeBufferPointer(start: field.value, count: field.valuelen)
            if RequestFieldCheck.equals(value, "HEAD") { return .head }
            if RequestFieldCheck.equals(value, "CONNECT") { return .connect }
            return .other
        }
        return .other
    }

    /// Server: queues the response to a request that was delivered and whose stream is still open.
    /// `streaming`: the body is written later (`writeStream`, `finishStream`); its DATA waits for it.
    func submitResponse(
        streamID: Int32, status: Int, block: HTTP2HeaderBlock?, buffer: HTTP2HeaderBuffer?, body: [UInt8]?,
        streaming: Bool = false
    ) throws(HTTP2Error) {
        let session = try liveSession()
        guard role == .server else { throw HTTP2Error(.invalidArgument("only a server session sends responses")) }
        guard (200...599).contains(status) else {
            throw HTTP2Error(.invalidArgument("status \(status) is not a final status (200-599)"))
        }
        guard let index = slot(session, streamID) else { throw HTTP2Error(.streamClosed(streamID: streamID)) }
        guard !slots[index].headersSent else {
            throw HTTP2Error(.invalidArgument("stream \(streamID) already has a response"))
        }
        let hasBody = streaming || !(body?.isEmpty ?? true)
        slots[index].headersSent = true
        slots[index].streaming = streaming
        slots[index].headerBlock = block
        if let body, !body.isEmpty {
            slots[index].outgoingBody = body
        }
        let userData = StreamSlots.userData(index)
        let result = withFields(block: block, buffer: buffer, status: status, slot: index) { fields, count in
            // A response is never spliced: a pre-encoded block's real field goes to nghttp2.
            if let block, let field = block.preEncoded { submitRealField(field, of: block, fields, count) }
            guard hasBody else { return nghttp2_submit_response(session, streamID, fields, count, nil) }
            var provider = nghttp2_data_provider(
                source: nghttp2_data_source(ptr: userData), read_callback: readOutgoingBody)
            return nghttp2_submit_response(session, streamID, fields, count, &provider)
        }
        guard result == 0 else {
            slots[index].headersSent = false
            slots[index].streaming = false
            slots[index].headerBlock = nil
            slots[index].outgoingBody = []
            slots[index].plainLength = 0
            throw HTTP2Error.library("nghttp2_submit_response", Int(result))
        }
    }

    /// Lays out `:status` (if any), then pseudo-headers, then the rest, and calls `submit` with them.
    /// Block fields are NO_COPY (the slot keeps the block alive); buffer fields are copied by nghttp2,
    /// except plain values, which nghttp2 gets as placeholders and slot `index`'s room in
    /// `plainLiterals` holds encoded (see `splicesPlainValues`).
    private func withFields<Result>(
        block: HTTP2HeaderBlock?, buffer: HTTP2HeaderBuffer?, status: Int?, slot index: Int32,
        _ submit: (UnsafePointer<nghttp2_nv>, Int) -> Result
    ) -> Result {
        let needed = (status == nil ? 0 : 1) + (block?.count ?? 0) + (buffer?.count ?? 0)
        if needed > fieldCapacity {
            fieldScratch.deallocate()
            fieldCapacity = max(needed, fieldCapacity * 2)
            fieldScratch = .allocate(capacity: fieldCapacity)
        }
        let fields = fieldScratch
        var count = 0
        if let status {
            statusScratch[8] = UInt8(ascii: "0") + UInt8(status / 100 % 10)
            statusScratch[9] = UInt8(ascii: "0") + UInt8(status / 10 % 10)
            statusScratch[10] = UInt8(ascii: "0") + UInt8(status % 10)
            fields[count] = nghttp2_nv(
                name: statusScratch, value: statusScratch + 8, namelen: 7, valuelen: 3, flags: NGHTTP2.flagNone)
            count += 1
        }
        let blockPseudo = block?.pseudoCount ?? 0
        guard let buffer, !buffer.isEmpty else {
            if let block { count = Self.copy(block, 0..<block.count, to: fields, at: count) }
            return submit(UnsafePointer(fields), count)
        }
        // Where the plain values' literals go, if they are spliced.
        let room =
            splicesPlainValues(block: block, buffer: buffer, fieldCount: needed) ? plainLiterals.room(index) : nil
        var plainLength = 0
        var noNames: [[UInt8]] = []
        let result = buffer.withFields { base, entries in
            if let block { count = Self.copy(block, 0..<blockPseudo, to: fields, at: count) }
            count = Self.copy(
                entries, base, pseudo: true, room: room, &plainLength, indexingOnce: &noNames, to: fields, at: count)
            if let block { count = Self.copy(block, blockPseudo..<block.count, to: fields, at: count) }
            count = Self.copy(
                entries, base, pseudo: false, room: room, &plainLength, indexingOnce: &plainNamesToIndex, to: fields,
                at: count)
            slots[index].plainLength = plainLength
            if plainLength > 0 { splicesHeaders = true }
            return submit(UnsafePointer(fields), count)
        }
        return result
    }

    /// Puts the block's fields in `range` at `fields[count...]`; returns the new count.
    @inline(__always)
    private static func copy(
        _ block: HTTP2HeaderBlock, _ range: Range<Int>, to fields: UnsafeMutablePointer<nghttp2_nv>, at count: Int
    ) -> Int {
        var count = count
        for index in range {
            fields[count] = block.fields[index]
            count += 1
        }
        return count
    }

    /// Puts the buffer's pseudo-headers (or its other fields) at `fields[count...]`, pointing into
    /// `base` (the buffer's bytes, which nghttp2 copies); returns the new count. With a `room`, a
    /// plain value's field gets the placeholder, and its value goes there as a string literal
    /// (`plainLength` counts the room's bytes). A plain value whose name is in `indexingOnce` goes
    /// as an ordinary indexed field instead, and its name leaves the list (see
    /// `HTTP2SessionConfiguration.plainNamesIndexedOnce`).
    @inline(__always)
    private static func copy(
        _ entries: UnsafeBufferPointer<HTTP2HeaderBuffer.Entry>, _ base: UnsafeMutablePointer<UInt8>, pseudo: Bool,
        room: UnsafeMutablePointer<UInt8>?, _ plainLength: inout Int, indexingOnce: inout [[UInt8]],
        to fields: UnsafeMutablePointer<nghttp2_nv>, at count: Int
    ) -> Int {
        var count = count
        for entry in entries where entry.isPseudo == pseudo {
            if entry.plainValue, !indexingOnce.isEmpty,
                removeName(UnsafeBufferPointer(start: base + entry.start, count: entry.nameCount), from: &indexingOnce)
            {
                fields[count] = nghttp2_nv(
                    name: base + entry.start, value: base + entry.start + entry.nameCount,
                    namelen: entry.nameCount, valuelen: entry.valueCount, flags: NGHTTP2.flagNone)
                count += 1
                continue
            }
            if let room, entry.plainValue {
                fields[count] = nghttp2_nv(
                    name: base + entry.start, value: plainPlaceholder, namelen: entry.nameCount, valuelen: 1,
                    flags: NGHTTP2.nvFlagNoIndex)
                plainLength += writePlainLiteral(
                    base + entry.start + entry.nameCount, entry.valueCount, to: room + plainLength)
                count += 1
                continue
            }
            fields[count] = nghttp2_nv(
                name: base + entry.start, value: base + entry.start + entry.nameCount,
                namelen: entry.nameCount, valuelen: entry.valueCount,
                flags: entry.neverIndex ? NGHTTP2.nvFlagNoIndex : NGHTTP2.flagNone)
            count += 1
        }
        return count
    }

    /// Removes `name` from `names`; false when it is not there.
    private static func removeName(_ name: UnsafeBufferPointer<UInt8>, from names: inout [[UInt8]]) -> Bool {
        guard let position = names.firstIndex(where: { $0.elementsEqual(name) }) else { return false }
        names.remove(at: position)
        return true
    }

    /// RST_STREAM on an open stream; a client request reset this way is reported as `cancelled`.
    /// Idempotent: a stream this side has already reset is left alone.
    func resetStream(_ streamID: Int32, errorCode: HTTP2ErrorCode) throws(HTTP2Error) {
        let session = try liveSession()
        guard let index = slot(session, streamID) ?? (role == .client ? slots.openSlot(streamID: streamID) : nil) else {
            throw HTTP2Error(.streamClosed(streamID: streamID))
        }
        // Once is enough. nghttp2 1.52 cancels a request still queued in ob_syn, but a second reset
        // of it skips the cancelled entry and sends RST_STREAM on an idle stream: a PROTOCOL_ERROR
        // that takes the whole connection down.
        guard slots[index].localReset == nil else { return }
        slots[index].localReset = .cancelled
        let result = nghttp2_submit_rst_stream(session, NGHTTP2.flagNone, streamID, errorCode.rawValue)
        guard result == 0 else { throw HTTP2Error.library("nghttp2_submit_rst_stream", Int(result)) }
    }

    /// GOAWAY with `lastStreamID` (default: the last stream this side processed).
    func submitGoAway(lastStreamID: Int32?, errorCode: HTTP2ErrorCode, debugData: [UInt8]) throws(HTTP2Error) {
        let session = try liveSession()
        let last = lastStreamID ?? nghttp2_session_get_last_proc_stream_id(session)
        let result = debugData.withUnsafeBufferPointer { data in
            nghttp2_submit_goaway(session, NGHTTP2.flagNone, last, errorCode.rawValue, data.baseAddress, data.count)
        }
        guard result == 0 else { throw HTTP2Error.library("nghttp2_submit_goaway", Int(result)) }
        localGoAwaysPending += 1
        if role == .server { refusingAbove = min(refusingAbove, last) }
    }

    /// Server: the first of a graceful shutdown's two GOAWAYs (last-stream-id 2^31-1).
    func submitShutdownNotice() throws(HTTP2Error) {
        let session = try liveSession()
        let result = nghttp2_submit_shutdown_notice(session)
        guard result == 0 else { throw HTTP2Error.library("nghttp2_submit_shutdown_notice", Int(result)) }
    }

    func submitSettings(maxConcurrentStreams: UInt32) throws(HTTP2Error) {
        let session = try liveSession()
        let entries = [Self.entry(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, maxConcurrentStreams)]
        let result = nghttp2_submit_settings(session, NGHTTP2.flagNone, entries, entries.count)
        guard result == 0 else { throw HTTP2Error.library("nghttp2_submit_settings", Int(result)) }
    }

    func submitPing(payload: UInt64) throws(HTTP2Error) {
        let session = try liveSession()
        let result = withUnsafeBytes(of: payload.bigEndian) { bytes in
            nghttp2_submit_ping(session, NGHTTP2.flagNone, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self))
        }
        guard result == 0 else { throw HTTP2Error.library("nghttp2_submit_ping", Int(result)) }
    }

    /// Client: how many more requests can be sent now without waiting inside nghttp2.
    var availableStreams: Int {
        guard let session, failure == nil, nghttp2_session_check_request_allowed(session) != 0 else { return 0 }
        let limit = Int(nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS))
        return max(0, limit - slots.openCount)
    }
}
