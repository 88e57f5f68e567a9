/// What a session keeps for one stream, from submit (client) or first HEADERS (server) to its close.
///
/// Slots live in a ``StreamSlots`` table and are reused, buffers included, so a steady flow of
/// requests allocates nothing here. nghttp2 holds the slot's index (plus one) as the stream user data.
struct StreamSlot {
    enum State {
        case free
        /// Known to nghttp2; callbacks may touch it.
        case open
        /// nghttp2 closed the stream; the close event waits to be delivered, then the slot is freed.
        case closed
    }

    /// Why this side reset the stream, when it did.
    enum LocalReset {
        case cancelled
        case headerListTooLarge
        case bodyTooLarge
        /// The session was closed with the stream still open.
        case sessionClosed
        /// Server: the request broke HTTP/2's rules for requests (RST_STREAM PROTOCOL_ERROR).
        case malformedRequest
        /// Client: the response broke HTTP/2's rules for responses (RST_STREAM PROTOCOL_ERROR).
        case malformedResponse
    }

    var state = State.free
    var streamID: Int32 = 0
    /// The caller's token (client).
    var token: UInt64 = 0
    /// Keeps NO_COPY header memory alive until the stream closes (client and server).
    var headerBlock: HTTP2HeaderBlock?
    /// Client: nghttp2 was given the block's real field, not the placeholder its pre-encoded field
    /// goes in for (HPACKPreEncodedField; a request whose header block might be split).
    var realFieldSubmitted = false
    /// The bytes of the plain values' string literals waiting in the session's `plainLiterals` room
    /// for this slot, for the HEADERS still to be sent (NGHTTP2Session+PlainValues.swift); 0: none.
    var plainLength = 0
    /// The body being sent and how much of it nghttp2 has taken.
    var outgoingBody: [UInt8] = []
    var outgoingOffset = 0

    /// Client: the request's HEADERS left. Server: a response has been submitted.
    var headersSent = false
    /// END_STREAM arrived: the response (client) or request (server) is complete.
    var complete = false
    /// Server: the request was handed to the delegate, so its close will be reported too.
    var delivered = false
    /// Server: the body is over the limit and further DATA is dropped.
    var discardingBody = false
    var localReset: LocalReset?
    var closeCode: UInt32 = 0

    /// Server: the response body is written over time (`outgoingBody` grows, the data provider
    /// defers while it is empty). Client: the response is reported as it arrives.
    var streaming = false
    /// Server, streaming: no more bytes will be written; END_STREAM follows the last of them.
    var streamFinished = false
    /// Server, streaming: the data provider returned NGHTTP2_ERR_DEFERRED and waits for a resume.
    var deferred = false
    /// Client, streaming: the final response HEADERS have been reported.
    var headDelivered = false

    /// Client: the last `:status` seen (a 1xx is replaced by the final one).
    var status = 0
    var headerListSize = 0
    var headers = HTTP2ReceivedHeaders()
    var body: [UInt8] = []
    /// Server: HTTP/2's rules for the request, checked as its fields and body arrive.
    var requestCheck = RequestFieldCheck()
    /// Client: HTTP/2's rules for the response, checked as its fields and body arrive.
    var responseCheck = ResponseFieldCheck()

    /// Clears the slot for reuse, keeping modest buffers (a stream that received megabytes gives
    /// its memory back).
    mutating func reset() {
        state = .free
        streamID = 0
        token = 0
        headerBlock = nil
        realFieldSubmitted = false
        plainLength = 0
        // Buffers already empty (the common case: a sent body is dropped when nghttp2 has read it,
        // a 200 from APNs has none) are left alone: assigning or emptying one costs calls even then.
        if outgoingBody.capacity > 0 { outgoingBody = [] }
        outgoingOffset = 0
        headersSent = false
        complete = false
        delivered = false
        discardingBody = false
        localReset = nil
        closeCode = 0
        streaming = false
        streamFinished = false
        deferred = false
        headDelivered = false
        status = 0
        headerListSize = 0
        requestCheck = RequestFieldCheck()
        responseCheck = ResponseFieldCheck()
        headers.reset(keepingAtMost: 4096)
        if body.capacity > 16_384 {
            body = []
        } else if !body.isEmpty {
            body.removeAll(keepingCapacity: true)
        }
    }
}
