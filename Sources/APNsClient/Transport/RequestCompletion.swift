import HTTP2

/// Who hears how a pooled request ended: a task awaiting it, or a loop-confined consumer that
/// tells its requests apart by a tag (the bulk sender, which needs no task per request).
enum RequestCompletion {
    case continuation(RequestSlots.Continuation)
    /// A task awaiting a device push's answer decoded (`APNsClient.send`): decoded here, on the
    /// loop, straight from the HTTP/2 response, so no `RawResponse` is made, copied into the task
    /// and destroyed there for each answer.
    case decoded(RequestSlots.DecodedContinuation)
    case handler(any LoopRequestHandler, tag: Int)

    /// Hands over the server's answer to the request sent with `sentID`; called once per request,
    /// on the pool's loop.
    @inline(__always)
    func complete(_ response: borrowing HTTP2Response, sentID: String, isNotification: Bool) {
        if case .decoded(let continuation) = self {
            continuation.resumeOrdered(returning: ResponseDecoder.decode(response, sentID: sentID))
            return
        }
        let raw = LoopPool.rawResponse(response, sentID: sentID, isNotification: isNotification)
        switch self {
        case .continuation(let continuation): continuation.resumeOrdered(returning: .success(raw))
        case .decoded: break
        case .handler(let handler, let tag): handler.requestFinished(tag, .success(raw))
        }
    }

    /// Hands over why the request failed; called once per request, on the pool's loop.
    @inline(__always)
    func fail(_ error: APNsClientError) {
        switch self {
        case .continuation(let continuation): continuation.resumeOrdered(returning: .failure(error))
        case .decoded(let continuation): continuation.resumeOrdered(returning: .failure(error))
        case .handler(let handler, let tag): handler.requestFinished(tag, .failure(error))
        }
    }
}

/// A consumer of pooled requests' outcomes, confined to the pool's loop.
protocol LoopRequestHandler: AnyObject {
    /// The request submitted with `tag` ended with `result`. Runs on the pool's loop, possibly
    /// inside the `perform` call that submitted it (when the pool is shutting down).
    func requestFinished(_ tag: Int, _ result: Result<RawResponse, APNsClientError>)
}
