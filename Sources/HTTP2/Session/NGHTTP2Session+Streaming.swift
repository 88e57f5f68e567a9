import CNghttp2

// Streaming bodies: a server response whose DATA is written over time, and a client request whose
// response is reported as it arrives.
//
//   server: submitResponse(streaming) -> HEADERS -> provider reads outgoingBody
//             buffer empty, not finished -> NGHTTP2_ERR_DEFERRED (deferred = true)
//             writeStream / finishStream  -> nghttp2_session_resume_data (if deferred)
//             buffer empty, finished      -> EOF (END_STREAM)
//   client: HEADERS (final status) -> .responseHead; DATA -> body gathered, .responseData once per
//           batch; the close is reported as for any request (its body already handed out).
//
// Flow control is nghttp2's: the provider is only asked for what the peer's windows allow, so
// bytes the peer is not reading stay in `outgoingBody` (bufferedStreamBytes); the owner caps that.

extension NGHTTP2Session {
    /// Server: appends `bytes` to a streaming response's body and wakes its data provider.
    func writeStream(_ streamID: Int32, _ bytes: [UInt8]) throws(HTTP2Error) {
        let index = try streamingSlot(streamID)
        guard !slots[index].streamFinished else {
            throw HTTP2Error(.invalidArgument("stream \(streamID) is finished: nothing more may be written"))
        }
        slots[index].outgoingBody.append(contentsOf: bytes)
        try resume(streamID, index)
    }

    /// Server: ends a streaming response once what is written has been sent (END_STREAM).
    func finishStream(_ streamID: Int32) throws(HTTP2Error) {
        let index = try streamingSlot(streamID)
        guard !slots[index].streamFinished else { return }
        slots[index].streamFinished = true
        try resume(streamID, index)
    }

    /// Server: bytes written to a streaming response and not yet taken by nghttp2 (0 for others).
    func bufferedStreamBytes(_ streamID: Int32) -> Int {
        guard let session, let index = slot(session, streamID) else { return 0 }
        return slots[index].outgoingBody.count - slots[index].outgoingOffset
    }

    private func streamingSlot(_ streamID: Int32) throws(HTTP2Error) -> Int32 {
        let session = try liveSession()
        guard role == .server, let index = slot(session, streamID), slots[index].streaming else {
            throw HTTP2Error(.streamClosed(streamID: streamID))
        }
        return index
    }

    private func resume(_ streamID: Int32, _ index: Int32) throws(HTTP2Error) {
        guard slots[index].deferred, let session else { return }
        slots[index].deferred = false
        let result = nghttp2_session_resume_data(session, streamID)
        guard result == 0 else { throw HTTP2Error.library("nghttp2_session_resume_data", Int(result)) }
    }

    /// The data provider for a streaming response: what is buffered, else defer (or EOF once finished).
    func readStreamingBody(
        _ index: Int32, count: Int, into buffer: UnsafeMutablePointer<UInt8>, flags: UnsafeMutablePointer<UInt32>
    ) -> Int {
        guard count > 0 else {
            if slots[index].streamFinished {
                flags.pointee |= NGHTTP2.dataFlagEOF
                return 0
            }
            slots[index].deferred = true
            return Int(NGHTTP2.deferred)
        }
        let offset = slots[index].outgoingOffset
        slots[index].outgoingBody.withUnsafeBufferPointer { body in
            if let base = body.baseAddress { buffer.update(from: base + offset, count: count) }
        }
        let taken = offset + count
        if taken == slots[index].outgoingBody.count {
            slots[index].outgoingBody.removeAll(keepingCapacity: slots[index].outgoingBody.capacity <= 65_536)
            slots[index].outgoingOffset = 0
            if slots[index].streamFinished { flags.pointee |= NGHTTP2.dataFlagEOF }
        } else if taken >= 65_536 {
            slots[index].outgoingBody.removeFirst(taken)  // keep the consumed prefix from growing
            slots[index].outgoingOffset = 0
        } else {
            slots[index].outgoingOffset = taken
        }
        return count
    }

    /// Client: the final response HEADERS of a streaming request arrived; report them once.
    func noteResponseHead(_ index: Int32) {
        guard slots[index].streaming, !slots[index].headDelivered, slots[index].status >= 200 else { return }
        slots[index].headDelivered = true
        events.append(.responseHead(slot: index))
    }
}
