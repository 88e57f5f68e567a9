import CNghttp2

// nghttp2's callbacks: top-level C functions that recover the session from user_data (unretained:
// the session outlives its nghttp2_session) and forward to NGHTTP2Session+Inbound.swift. They never
// throw: they return 0, NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE to reset one stream, or
// NGHTTP2_ERR_CALLBACK_FAILURE (fatal to the session) only if nghttp2 passes NULL where it promised not to.

/// The callback tables, built once and shared: nghttp2_session_*_new copies one into each session.
enum NGHTTP2Callbacks {
    // SAFETY: written once by the (thread-safe) lazy initialiser, never mutated, only read by nghttp2.
    nonisolated(unsafe) static let shared: OpaquePointer? = make(fieldBuffers: false)
    /// `shared`, but header fields come as nghttp2's reference-counted buffers (on_header_callback2),
    /// for client sessions that remember the fields they drop (`DroppedResponseFields`).
    // SAFETY: as `shared`.
    nonisolated(unsafe) static let withFieldBuffers: OpaquePointer? = make(fieldBuffers: true)

    private static func make(fieldBuffers: Bool) -> OpaquePointer? {
        var callbacks: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0, let callbacks else { return nil }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, onBeginHeaders)
        if fieldBuffers {
            nghttp2_session_callbacks_set_on_header_callback2(callbacks, onHeaderBuffers)
        } else {
            nghttp2_session_callbacks_set_on_header_callback(callbacks, onHeader)
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, onDataChunk)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, onFrameReceived)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, onStreamClose)
        nghttp2_session_callbacks_set_on_frame_send_callback(callbacks, onFrameSent)
        nghttp2_session_callbacks_set_on_frame_not_send_callback(callbacks, onFrameNotSent)
        nghttp2_session_callbacks_set_error_callback2(callbacks, onError)
        return callbacks
    }
}

/// Runs `body` with the session behind `user_data`, without retaining it: nghttp2 calls back only
/// from inside mem_recv/mem_send/submit calls the session itself makes, so it is alive throughout.
/// (A retain and release per callback showed up at several percent of a request.)
private func withEngine<Result>(
    _ userData: UnsafeMutableRawPointer?, orElse failure: Result, _ body: (NGHTTP2Session) -> Result
) -> Result {
    guard let userData else { return failure }
    return Unmanaged<NGHTTP2Session>.fromOpaque(userData)._withUnsafeGuaranteedRef(body)
}

private func onBeginHeaders(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let session, let frame else { return NGHTTP2.callbackFailure }
    return withEngine(userData, orElse: NGHTTP2.callbackFailure) { $0.beginHeaders(session, frame) }
}

private func onHeader(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?,
    _ name: UnsafePointer<UInt8>?, _ nameLength: Int, _ value: UnsafePointer<UInt8>?, _ valueLength: Int,
    _ flags: UInt8, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let session, let frame else { return NGHTTP2.callbackFailure }
    let name = UnsafeBufferPointer(start: name, count: name == nil ? 0 : nameLength)
    let value = UnsafeBufferPointer(start: value, count: value == nil ? 0 : valueLength)
    return withEngine(userData, orElse: NGHTTP2.callbackFailure) { $0.header(session, frame, name: name, value: value) }
}

private func onHeaderBuffers(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ name: OpaquePointer?, _ value: OpaquePointer?,
    _ flags: UInt8, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let session, let frame, let name, let value else { return NGHTTP2.callbackFailure }
    return withEngine(userData, orElse: NGHTTP2.callbackFailure) { $0.header(session, frame, name: name, value: value) }
}

private func onDataChunk(
    _ session: OpaquePointer?, _ flags: UInt8, _ streamID: Int32, _ data: UnsafePointer<UInt8>?, _ length: Int,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let session else { return NGHTTP2.callbackFailure }
    let chunk = UnsafeBufferPointer(start: data, count: data == nil ? 0 : length)
    return withEngine(userData, orElse: NGHTTP2.callbackFailure) { $0.dataChunk(session, streamID, chunk) }
}

private func onFrameReceived(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let session, let frame else { return NGHTTP2.callbackFailure }
    return withEngine(userData, orElse: NGHTTP2.callbackFailure) { $0.frameReceived(session, frame) }
}

private func onStreamClose(
    _ session: OpaquePointer?, _ streamID: Int32, _ errorCode: UInt32, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let session else { return NGHTTP2.callbackFailure }
    return withEngine(userData, orElse: NGHTTP2.callbackFailure) { $0.streamClosed(session, streamID, errorCode) }
}

private func onFrameSent(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let session, let frame else { return NGHTTP2.callbackFailure }
    return withEngine(userData, orElse: NGHTTP2.callbackFailure) { $0.frameSent(session, frame) }
}

private func onFrameNotSent(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ errorCode: Int32,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let frame else { return NGHTTP2.callbackFailure }
    return withEngine(userData, orElse: NGHTTP2.callbackFailure) { engine in
        if frame.pointee.hd.type == NGHTTP2.frameGoAway, engine.localGoAwaysPending > 0 {
            engine.localGoAwaysPending -= 1
        }
        return 0
    }
}

private func onError(
    _ session: OpaquePointer?, _ libraryErrorCode: Int32, _ message: UnsafePointer<CChar>?, _ length: Int,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    let text = message.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: length), as: UTF8.self) }
    return withEngine(userData, orElse: NGHTTP2.callbackFailure) { engine in
        engine.lastLibraryMessage = text ?? ""
        return 0
    }
}

/// The data provider's read callback: copies the next part of the slot's outgoing body.
func readOutgoingBody(
    _ session: OpaquePointer?, _ streamID: Int32, _ buffer: UnsafeMutablePointer<UInt8>?, _ length: Int,
    _ dataFlags: UnsafeMutablePointer<UInt32>?, _ source: UnsafeMutablePointer<nghttp2_data_source>?,
    _ userData: UnsafeMutableRawPointer?
) -> Int {
    guard let buffer, let dataFlags, let source else { return Int(NGHTTP2.callbackFailure) }
    return withEngine(userData, orElse: Int(NGHTTP2.callbackFailure)) { engine in
        engine.readBody(streamID, source.pointee.ptr, into: buffer, length: length, flags: dataFlags)
    }
}
