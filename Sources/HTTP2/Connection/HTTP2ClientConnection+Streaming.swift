// Streaming requests: the response head and body chunks reach the caller as they arrive, on the
// loop; the completion still comes exactly once, from the stream's close. `cancel` resets the
// stream (RST_STREAM CANCEL), after which the completion reports `.stream(.cancelled)`.

extension HTTP2ClientConnection {
    /// Sends a request whose response is delivered incrementally: `onHead` once the final HEADERS
    /// are in, `onData` for each batch of body bytes, in order, then `completion` once (success
    /// with an empty body, since the chunks went to `onData`, or the failure). All on the loop.
    ///
    /// Returns the id to ``cancel(_:)`` it with, or nil when the request could not be submitted
    /// (then `completion` has already been called). No request timeout applies: a stream may stay
    /// open as long as the server keeps it.
    @discardableResult
    public func submitStreaming(
        headers: HTTP2HeaderBlock?, extraHeaders: HTTP2HeaderBuffer?, body: [UInt8],
        onHead: @escaping (HTTP2Response) -> Void, onData: @escaping ([UInt8]) -> Void,
        completion: @escaping (Result<HTTP2Response, HTTP2RequestFailure>) -> Void
    ) -> UInt64? {
        loop.preconditionInEventLoop()
        guard isReady, let session else {
            let error: HTTP2ConnectionError = if case .closed(let reason) = phase { reason } else { .closedLocally }
            completion(.failure(HTTP2RequestFailure(kind: .connection(error), mayHaveBeenProcessed: false)))
            return nil
        }
        let token = pending.insert(PendingRequests.Entry(
            completion: .closure(completion), streamID: 0, deadline: 0, onHead: onHead, onData: onData))
        do {
            let streamID = try session.submitStreamingRequest(
                headers: headers, extraHeaders: extraHeaders, body: body, token: token)
            pending.setStreamID(streamID, for: token)
        } catch {
            _ = pending.remove(token)
            completion(.failure(HTTP2RequestFailure(kind: .connection(.http2(error)), mayHaveBeenProcessed: false)))
            return nil
        }
        scheduleFlush()
        return token
    }

    /// Cancels a request (streaming or not) with RST_STREAM CANCEL; its completion follows with
    /// `.stream(.cancelled)`. Returns false when it has already completed.
    @discardableResult
    public func cancel(_ request: UInt64) -> Bool {
        loop.preconditionInEventLoop()
        guard let entry = pending[request], let session else { return false }
        do {
            try session.resetStream(entry.streamID)
        } catch {
            return false
        }
        flush()
        return true
    }
}
