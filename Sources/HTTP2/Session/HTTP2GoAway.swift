/// A GOAWAY frame received from the peer.
///
/// Streams above ``lastStreamID`` were not processed and are reported as refused (safe to resend
/// elsewhere); streams at or below it may still complete. APNs puts `{"reason":"..."}` in the debug data.
public struct HTTP2GoAway: Sendable, Equatable {
    public let lastStreamID: Int32
    public let errorCode: HTTP2ErrorCode
    public let debugData: [UInt8]

    public init(lastStreamID: Int32, errorCode: HTTP2ErrorCode, debugData: [UInt8]) {
        self.lastStreamID = lastStreamID
        self.errorCode = errorCode
        self.debugData = debugData
    }

    /// The debug data decoded as UTF-8 (invalid sequences replaced).
    public var debugText: String { String(decoding: debugData, as: UTF8.self) }
}
