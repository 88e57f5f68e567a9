import HTTP2

/// Opens a connection on `loop`, sends one request when ready, returns the result.
public func sendOne(
    on loop: EventLoop, _ configuration: HTTP2ClientConnection.Configuration, path: String, method: String = "POST",
    body: [UInt8] = Array(#"{"aps":{"alert":"hi"}}"#.utf8), headers extra: [(String, String)] = [],
    timeout: Duration? = .seconds(5)
) async -> Result<HTTP2Response, HTTP2RequestFailure> {
    await withCheckedContinuation { continuation in
        loop.execute {
            let once = OnceBox(continuation)
            _ = HTTP2ClientConnection.open(on: loop, configuration: configuration) { connection, event in
                switch event {
                case .ready:
                    var headers = HTTP2HeaderBuffer()
                    headers.append(":method", method)
                    headers.append(":scheme", configuration.tls == nil ? "http" : "https")
                    headers.append(":path", path)
                    headers.append(":authority", "\(configuration.host):\(configuration.port)")
                    for (name, value) in extra { headers.append(name, value) }
                    connection.submit(headers: nil, extraHeaders: headers, body: body, timeout: timeout) { result in
                        once.resume(result)
                        connection.close()
                    }
                case .closed(let error):
                    once.resume(.failure(HTTP2RequestFailure(kind: .connection(error), mayHaveBeenProcessed: false)))
                default:
                    break
                }
            }
        }
    }
}

/// Resumes a continuation at most once (loop-confined use).
public final class OnceBox<T: Sendable>: @unchecked Sendable {
    // SAFETY: used from one loop thread only.
    private var continuation: CheckedContinuation<T, Never>?
    public init(_ continuation: CheckedContinuation<T, Never>) { self.continuation = continuation }
    public func resume(_ value: T) {
        continuation?.resume(returning: value)
        continuation = nil
    }
}
