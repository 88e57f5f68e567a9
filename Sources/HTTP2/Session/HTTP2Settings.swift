/// The SETTINGS values in force for one side of a connection (RFC 9113 section 6.5.2).
///
/// `maxConcurrentStreams` and `maxHeaderListSize` read `UInt32.max` when the peer sets no limit.
public struct HTTP2Settings: Sendable, Equatable {
    public var headerTableSize: UInt32
    public var enablePush: Bool
    public var maxConcurrentStreams: UInt32
    public var initialWindowSize: UInt32
    public var maxFrameSize: UInt32
    public var maxHeaderListSize: UInt32

    public init(
        headerTableSize: UInt32, enablePush: Bool, maxConcurrentStreams: UInt32, initialWindowSize: UInt32,
        maxFrameSize: UInt32, maxHeaderListSize: UInt32
    ) {
        self.headerTableSize = headerTableSize
        self.enablePush = enablePush
        self.maxConcurrentStreams = maxConcurrentStreams
        self.initialWindowSize = initialWindowSize
        self.maxFrameSize = maxFrameSize
        self.maxHeaderListSize = maxHeaderListSize
    }
}
