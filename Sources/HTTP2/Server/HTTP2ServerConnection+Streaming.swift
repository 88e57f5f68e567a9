// Streaming responses on a server connection: HEADERS at start, DATA per write, END_STREAM at
// finish; the handler's onClose hears once how the stream ended.
//
//   startStreaming --write*--> finish --(all sent)--> closed: .finished
//        |            |
//        |            +--(unsent bytes would exceed streamBufferLimit)--> RST ENHANCE_YOUR_CALM: .reset
//        +--(client RST_STREAM)--> .reset(code)     +--(connection ends)--> .connectionClosed

/// How a streaming response ended, as its `onClose` hears it (once, on the connection's loop).
public enum HTTP2StreamEnd: Sendable, Equatable {
    /// `finish()` was called and everything written was sent.
    case finished
    /// The stream was reset: by the client, or by the server at the buffer cap (ENHANCE_YOUR_CALM).
    case reset(HTTP2ErrorCode)
    /// The connection ended (lost, closed, shut down) with the stream open.
    case connectionClosed
}

/// An open streaming response, kept by its connection.
struct StreamingResponse {
    let onClose: (HTTP2StreamEnd) -> Void
    var finished = false
}

extension HTTP2ServerConnection {
    func startStreaming(
        _ streamID: Int32, status: Int, headers: [HTTP2Header], onClose: @escaping (HTTP2StreamEnd) -> Void
    ) -> Bool {
        loop.preconditionInEventLoop()
        guard isAcceptingAnswers, !answered.contains(streamID) else { return false }
        do {
            if let http1 {
                try http1.submitStreamingResponse(streamID: streamID, status: status, headers: headers)
            } else {
                try session.submitStreamingResponse(streamID: streamID, status: status, headers: headers)
            }
        } catch {
            switch error.kind {
            case .invalidHeader, .invalidArgument: reset(streamID, errorCode: .internalError)
            default: break
            }
            return false
        }
        answered.insert(streamID)
        streaming[streamID] = StreamingResponse(onClose: onClose)
        requestFlush()
        return true
    }

    func writeStream(_ streamID: Int32, _ bytes: [UInt8]) -> Bool {
        loop.preconditionInEventLoop()
        guard isAcceptingAnswers, let stream = streaming[streamID], !stream.finished else { return false }
        let buffered = http1?.bufferedStreamBytes(streamID: streamID) ?? session.bufferedStreamBytes(streamID: streamID)
        guard buffered + bytes.count <= server.configuration.streamBufferLimit else {
            if let http1 {
                try? http1.abandon(streamID: streamID, errorCode: .enhanceYourCalm)
            } else {
                try? session.submitRstStream(streamID: streamID, errorCode: .enhanceYourCalm)
            }
            requestFlush()
            return false
        }
        do {
            if let http1 {
                try http1.writeStream(streamID: streamID, bytes)
            } else {
                try session.writeStream(streamID: streamID, bytes)
            }
        } catch {
            return false
        }
        requestFlush()
        return true
    }

    func finishStream(_ streamID: Int32) -> Bool {
        loop.preconditionInEventLoop()
        guard isAcceptingAnswers, streaming[streamID]?.finished == false else { return false }
        do {
            if let http1 {
                try http1.finishStream(streamID: streamID)
            } else {
                try session.finishStream(streamID: streamID)
            }
        } catch {
            return false
        }
        streaming[streamID]?.finished = true
        requestFlush()
        return true
    }

    /// From the session's stream close: tells the handler how the stream ended.
    func streamEnded(_ stream: StreamingResponse, errorCode: HTTP2ErrorCode) {
        let end: HTTP2StreamEnd
        if case .closed = state {
            end = .connectionClosed
        } else if stream.finished && errorCode == .noError {
            end = .finished
        } else {
            end = .reset(errorCode)
        }
        stream.onClose(end)
    }
}
