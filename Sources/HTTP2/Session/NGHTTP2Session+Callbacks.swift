import CNghttp2

// nghttp2's callbacks: top-level C functions that recover the session from user_data (unretained:
// the session outlives its nghttp2_session) and forward to NGHTTP2Session+Inbound.swift. They never
// throw; a handler that must stop nghttp2 records why and returns NGHTTP2_ERR_CALLBACK_FAILURE.

/// The callback table, built once and shared: nghttp2_session_*_new copies it into each session.
enum NGHTTP2Callbacks {
    // SAFETY: written once by the (thread-safe) lazy initialiser, never mutated, only read by nghttp2.
    nonisolated(unsafe) static let shared: OpaquePointer? = make()

    private static func make() -> OpaquePointer? {
        var callbacks: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0, let callbacks else { return nil }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, onBeginHeaders)
        nghttp2_session_callbacks_set_on_header_callback(callbacks, onHeader)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, onDataChunk)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, onFrameReceived)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, onStreamClose)
        nghttp2_session_callbacks_set_on_frame_send_callback(callbacks, onFrameSent)
        nghttp2_session_callbacks_set_on_frame_not_send_callback(callbacks, onFrameNotSent)
        nghttp2_session_callbacks_set_error_callback2(callbacks, onError)
        return callbacks
    }
}

private func engine(_ userData: UnsafeMutableRawPointer?) -> NGHTTP2Session? {
    guard let userData else { return nil }
    return Unmanaged<NGHTTP2Session>.fromOpaque(userData).takeUnretainedValue()
}

private func onBeginHeaders(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let engine = engine(userData), let session, let frame else { return NGHTTP2.callbackFailure }
    return engine.beginHeaders(session, frame)
}

private func onHeader(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?,
    _ name: UnsafePointer<UInt8>?, _ nameLength: Int, _ value: UnsafePointer<UInt8>?, _ valueLength: Int,
    _ flags: UInt8, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let engine = engine(userData), let session, let frame else { return NGHTTP2.callbackFailure }
    return engine.header(
        session, frame,
        name: UnsafeBufferPointer(start: name, count: name == nil ? 0 : nameLength),
        value: UnsafeBufferPointer(start: value, count: value == nil ? 0 : valueLength))
}

private func onDataChunk(
    _ session: OpaquePointer?, _ flags: UInt8, _ streamID: Int32, _ data: UnsafePointer<UInt8>?, _ length: Int,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let engine = engine(userData), let session else { return NGHTTP2.callbackFailure }
    return engine.dataChunk(session, streamID, UnsafeBufferPointer(start: data, count: data == nil ? 0 : length))
}

private func onFrameReceived(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let engine = engine(userData), let session, let frame else { return NGHTTP2.callbackFailure }
    return engine.frameReceived(session, frame)
}

private func onStreamClose(
    _ session: OpaquePointer?, _ streamID: Int32, _ errorCode: UInt32, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let engine = engine(userData), let session else { return NGHTTP2.callbackFailure }
    return engine.streamClosed(session, streamID, errorCode)
}

private func onFrameSent(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let engine = engine(userData), let session, let frame else { return NGHTTP2.callbackFailure }
    return engine.frameSent(session, frame)
}

private func onFrameNotSent(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ errorCode: Int32,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let engine = engine(userData), let frame else { return NGHTTP2.callbackFailure }
    if frame.pointee.hd.type == NGHTTP2.frameGoAway, engine.localGoAwaysPending > 0 {
        engine.localGoAwaysPending -= 1
    }
    return 0
}

private func onError(
    _ session: OpaquePointer?, _ libraryErrorCode: Int32, _ message: UnsafePointer<CChar>?, _ length: Int,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let engine = engine(userData) else { return NGHTTP2.callbackFailure }
    if let message {
        let bytes = UnsafeRawBufferPointer(start: message, count: length)
        engine.lastLibraryMessage = String(decoding: bytes, as: UTF8.self)
    }
    return 0
}

/// The data provider's read callback: copies the next part of the slot's outgoing body.
func readOutgoingBody(
    _ session: OpaquePointer?, _ streamID: Int32, _ buffer: UnsafeMutablePointer<UInt8>?, _ length: Int,
    _ dataFlags: UnsafeMutablePointer<UInt32>?, _ source: UnsafeMutablePointer<nghttp2_data_source>?,
    _ userData: UnsafeMutableRawPointer?
) -> Int {
    guard let engine = engine(userData), let buffer, let dataFlags, let source else {
        return Int(NGHTTP2.callbackFailure)
    }
    return engine.readBody(streamID, source.pointee.ptr, into: buffer, length: length, flags: dataFlags)
}
