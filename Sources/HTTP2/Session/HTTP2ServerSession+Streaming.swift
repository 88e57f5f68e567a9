// Streaming responses on the server session: HEADERS now, DATA as it is written, END_STREAM at
// `finishStream`. See NGHTTP2Session+Streaming.swift for how the data provider defers and resumes.

extension HTTP2ServerSession {
    /// Queues the HEADERS of a response whose body is written later with ``writeStream(streamID:_:)``
    /// and ended with ``finishStream(streamID:)``. Throws as `submitResponse` does.
    public func submitStreamingResponse(
        streamID: Int32, status: Int, headers: [HTTP2Header] = []
    ) throws(HTTP2Error) {
        for header in headers {
            try header.validate()
        }
        let buffer = headers.isEmpty ? nil : HTTP2HeaderBuffer(headers)
        try engine.submitResponse(
            streamID: streamID, status: status, block: nil, buffer: buffer, body: nil, streaming: true)
    }

    /// Appends body bytes to a streaming response. They are sent as the client's flow-control
    /// windows allow; until then they wait here (see ``bufferedStreamBytes(streamID:)``). Throws
    /// `streamClosed` once the stream has ended, `invalidArgument` after `finishStream`.
    public func writeStream(streamID: Int32, _ bytes: [UInt8]) throws(HTTP2Error) {
        try engine.writeStream(streamID, bytes)
    }

    /// Ends a streaming response: END_STREAM follows the bytes already written. Idempotent.
    public func finishStream(streamID: Int32) throws(HTTP2Error) {
        try engine.finishStream(streamID)
    }

    /// Bytes written to a streaming response that nghttp2 has not sent yet (the client's windows
    /// are closed, or output has not been produced since); 0 for an unknown or ended stream.
    public func bufferedStreamBytes(streamID: Int32) -> Int {
        engine.bufferedStreamBytes(streamID)
    }
}
