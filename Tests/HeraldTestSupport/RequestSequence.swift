import HTTP2

/// One request as written on the wire, headers in order (repeats allowed).
public struct RawRequest: Sendable {
    public var method: String
    public var path: String
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(method: String = "POST", path: String, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }
}

/// What a request sequence saw: each request's result, and the server's last GOAWAY.
public struct SequenceOutcome: Sendable {
    public var results: [Result<HTTP2Response, HTTP2RequestFailure>]
    public var goAway: HTTP2GoAway?
}

/// Opens one connection on `loop` and sends `requests` one after another on it, each once the
/// previous one was answered. With `awaitClose`, waits for the server to end the connection (GOAWAY
/// then close) after the last answer, instead of closing it; `whenAnswered` runs after the last
/// answer, before that wait (to shut a server down, say); `beforeEach` runs before each request is sent.
public func sendSequence(
    on loop: EventLoop, _ configuration: HTTP2ClientConnection.Configuration, _ requests: [RawRequest],
    awaitClose: Bool = false, whenAnswered: (@Sendable () -> Void)? = nil,
    beforeEach: (@Sendable (Int) -> Void)? = nil
) async -> SequenceOutcome {
    await withCheckedContinuation { continuation in
        loop.execute {
            let once = OnceBox(continuation)
            var results: [Result<HTTP2Response, HTTP2RequestFailure>] = []
            func submit(_ connection: HTTP2ClientConnection, _ index: Int) {
                guard index < requests.count else {
                    whenAnswered?()
                    if !awaitClose {
                        once.resume(SequenceOutcome(results: results, goAway: connection.lastGoAway))
                        connection.close()
                    }
                    return
                }
                beforeEach?(index)
                let request = requests[index]
                var headers = HTTP2HeaderBuffer()
                headers.append(":method", request.method)
                headers.append(":scheme", configuration.tls == nil ? "http" : "https")
                headers.append(":path", request.path)
                headers.append(":authority", "\(configuration.host):\(configuration.port)")
                for (name, value) in request.headers { headers.append(name, value) }
                connection.submit(headers: nil, extraHeaders: headers, body: request.body, timeout: .seconds(5)) { result in
                    results.append(result)
                    submit(connection, index + 1)
                }
            }
            _ = HTTP2ClientConnection.open(on: loop, configuration: configuration) { connection, event in
                switch event {
                case .ready:
                    if results.isEmpty { submit(connection, 0) }
                case .closed:
                    once.resume(SequenceOutcome(results: results, goAway: connection.lastGoAway))
                default:
                    break
                }
            }
        }
    }
}
