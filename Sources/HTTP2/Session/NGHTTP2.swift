import CNghttp2

/// nghttp2's constants as the plain integers its functions take and return, and its messages.
///
/// nghttp2's C enums import as wrapper structs; callbacks and submit functions use raw `Int32`,
/// `UInt8` and `UInt32`. Converting once here keeps the call sites readable.
enum NGHTTP2 {
    static let callbackFailure = NGHTTP2_ERR_CALLBACK_FAILURE.rawValue
    static let temporalCallbackFailure = NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue
    /// A data provider has nothing to send yet; `nghttp2_session_resume_data` wakes it.
    static let deferred = NGHTTP2_ERR_DEFERRED.rawValue

    static let flagNone = UInt8(NGHTTP2_FLAG_NONE.rawValue)
    static let flagEndStream = UInt8(NGHTTP2_FLAG_END_STREAM.rawValue)
    static let flagAck = UInt8(NGHTTP2_FLAG_ACK.rawValue)

    static let frameData = UInt8(NGHTTP2_DATA.rawValue)
    static let frameHeaders = UInt8(NGHTTP2_HEADERS.rawValue)
    static let frameSettings = UInt8(NGHTTP2_SETTINGS.rawValue)
    static let framePing = UInt8(NGHTTP2_PING.rawValue)
    static let frameGoAway = UInt8(NGHTTP2_GOAWAY.rawValue)

    static let dataFlagEOF = NGHTTP2_DATA_FLAG_EOF.rawValue

    /// Name and value live as long as the block: nghttp2 need not copy them.
    static let nvFlagNoCopy = UInt8(NGHTTP2_NV_FLAG_NO_COPY_NAME.rawValue | NGHTTP2_NV_FLAG_NO_COPY_VALUE.rawValue)
    /// HPACK "literal never indexed": kept out of both dynamic tables.
    static let nvFlagNoIndex = UInt8(NGHTTP2_NV_FLAG_NO_INDEX.rawValue)

    /// nghttp2's text for a library error code (`nghttp2_strerror`).
    static func message(_ code: Int32) -> String {
        guard let text = nghttp2_strerror(code) else { return "unknown nghttp2 error" }
        return String(cString: text)
    }
}
