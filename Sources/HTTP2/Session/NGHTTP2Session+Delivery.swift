// Moving a closed stream's results out of its slot for delivery, and its buffers back afterwards,
// so that a delegate that does not keep them leaves the slot's storage ready for the next stream.

extension NGHTTP2Session {
    func takeResponse(_ index: Int32) -> HTTP2Response {
        var response = HTTP2Response(status: slots[index].status, headers: HTTP2ReceivedHeaders(), body: [])
        swap(&response.headers, &slots[index].headers)
        swap(&response.body, &slots[index].body)
        return response
    }

    func takeRequest(_ index: Int32) -> HTTP2Request {
        var request = HTTP2Request(
            streamID: slots[index].streamID, headers: HTTP2ReceivedHeaders(), body: [],
            exceededBodyLimit: slots[index].discardingBody)
        swap(&request.headers, &slots[index].headers)
        swap(&request.body, &slots[index].body)
        return request
    }

    /// Gives the slot its buffers back (emptied on release; reused if the delegate kept no copy).
    func recycle(_ index: Int32, headers: inout HTTP2ReceivedHeaders, body: inout [UInt8]) {
        giveBack(index, headers: &headers, body: &body)
        slots[index].headers.reset(keepingAtMost: 4096)
        slots[index].body.removeAll(keepingCapacity: slots[index].body.capacity <= 16_384)
    }

    /// `recycle` for a slot released right afterwards: `StreamSlots.release` empties the buffers
    /// (emptying them here as well would do that work twice per response).
    func giveBack(_ index: Int32, headers: inout HTTP2ReceivedHeaders, body: inout [UInt8]) {
        swap(&headers, &slots[index].headers)
        swap(&body, &slots[index].body)
    }

    /// Why a client stream closed without a complete response.
    func streamError(_ index: Int32) -> HTTP2StreamError {
        let slot = slots[index]
        // A response found malformed by its last frame (END_STREAM) closes the stream at once, with
        // NO_ERROR and no RST_STREAM left to send; it is reported as nghttp2 reports it: reset with
        // PROTOCOL_ERROR.
        let code =
            slot.localReset == .malformedResponse
            ? HTTP2ErrorCode.protocolError : HTTP2ErrorCode(rawValue: slot.closeCode)
        let kind: HTTP2StreamError.Kind
        switch slot.localReset {
        case .cancelled:
            kind = .cancelled
        case .headerListTooLarge:
            kind = .headerListTooLarge(limit: configuration.maxHeaderListSize)
        case .bodyTooLarge:
            kind = .bodyTooLarge(limit: configuration.maxBodySize)
        case .sessionClosed:
            kind = .connectionClosed
        case .malformedRequest, .malformedResponse:
            kind = .reset(code)
        case nil:
            kind = code == .refusedStream ? .refused : .reset(code)
        }
        return HTTP2StreamError(kind: kind, errorCode: code, requestSent: slot.headersSent)
    }
}
