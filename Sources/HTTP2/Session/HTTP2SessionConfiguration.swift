/// What a session advertises to its peer and the limits it enforces on what it receives.
public struct HTTP2SessionConfiguration: Sendable, Equatable {
    /// SETTINGS_MAX_CONCURRENT_STREAMS a server advertises: how many requests a client may have open.
    /// Clients ignore it (they disable server push instead). Change it later with `submitSettings`.
    public var maxConcurrentStreams: UInt32 = 100
    /// SETTINGS_INITIAL_WINDOW_SIZE: how many body bytes per stream the peer may send before a
    /// WINDOW_UPDATE. nghttp2 sends WINDOW_UPDATEs as received data is handed over.
    public var initialWindowSize: UInt32 = 65_535
    /// The connection-level receive window (at least 65,535, the protocol's initial value).
    public var connectionWindowSize: UInt32 = 65_535
    /// SETTINGS_MAX_HEADER_LIST_SIZE, enforced: a stream whose header list (names + values + 32 per
    /// field, RFC 7541 section 4.1) grows past it is reset with ENHANCE_YOUR_CALM.
    public var maxHeaderListSize: Int = 16_384
    /// The largest body kept per stream. A client resets a response that grows past it (CANCEL); a
    /// server delivers the request early, flagged, so it can answer 413 (see ``HTTP2Request``).
    public var maxBodySize: Int = 65_536
    /// Whether PINGs from the peer are acknowledged (true, as HTTP/2 requires). False only to test
    /// how a peer copes with a dead connection.
    public var acknowledgesPings: Bool = true
    /// Server: let nghttp2 check requests against HTTP/2's rules (its "HTTP messaging") instead of
    /// ``RequestFieldCheck``. Only for tests, which compare the two.
    var libraryChecksRequests = false
    /// Client: let nghttp2 check responses against HTTP/2's rules instead of ``ResponseFieldCheck``.
    /// Only for tests, which compare the two.
    var libraryChecksResponses = false
    /// Client: the response header fields to keep (nil: all of them). The others still count
    /// against `maxHeaderListSize` but are dropped unread; `:status` is always parsed into the
    /// response's `status`, and appears among its headers only if named here.
    public var keptResponseHeaders: HTTP2HeaderNameSet?
    /// Client: plain-value fields (`HTTP2HeaderBuffer.append(..., plainValue: true)`) with these
    /// names, not pseudo-headers, go once per connection as ordinary indexed fields, so that both
    /// sides' HPACK tables hold the name and every later request names the field by its index.
    /// For a name the static table lacks (`apns-id`): as a never-indexed literal nghttp2 would
    /// write the name itself, Huffman-coded, into every request. Nil: always plain.
    public var plainNamesIndexedOnce: HTTP2HeaderNameSet?

    public init() {}

    public init(
        maxConcurrentStreams: UInt32 = 100, initialWindowSize: UInt32 = 65_535, connectionWindowSize: UInt32 = 65_535,
        maxHeaderListSize: Int = 16_384, maxBodySize: Int = 65_536
    ) {
        self.maxConcurrentStreams = maxConcurrentStreams
        self.initialWindowSize = initialWindowSize
        self.connectionWindowSize = connectionWindowSize
        self.maxHeaderListSize = maxHeaderListSize
        self.maxBodySize = maxBodySize
    }
}
