/// Who hears how a pooled request ended: a task awaiting it, or a loop-confined consumer that
/// tells its requests apart by a tag (the bulk sender, which needs no task per request).
enum RequestCompletion {
    case continuation(RequestSlots.Continuation)
    case handler(any LoopRequestHandler, tag: Int)

    /// Hands `result` over; called once per request, on the pool's loop.
    @inline(__always)
    func complete(_ result: consuming Result<RawResponse, APNsClientError>) {
        switch self {
        case .continuation(let continuation): continuation.resume(returning: result)
        case .handler(let handler, let tag): handler.requestFinished(tag, result)
        }
    }
}

/// A consumer of pooled requests' outcomes, confined to the pool's loop.
protocol LoopRequestHandler: AnyObject {
    /// The request submitted with `tag` ended with `result`. Runs on the pool's loop, possibly
    /// inside the `perform` call that submitted it (when the pool is shutting down).
    func requestFinished(_ tag: Int, _ result: Result<RawResponse, APNsClientError>)
}
