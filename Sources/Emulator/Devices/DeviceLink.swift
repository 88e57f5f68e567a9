// A simulated device's one HTTP/2 connection to the emulator, on one event loop: opened on first
// use, reopened on the next request after it closes. Plain requests get a complete response;
// the notifications request is streamed and split into lines.

import APNs
import HTTP2

/// Why a simulated device's request failed.
public struct SimulatedDeviceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The emulator's HTTP status, when it answered.
    public let status: Int?
    public let reason: String

    public init(status: Int?, reason: String) {
        self.status = status
        self.reason = reason
    }

    public var description: String { status.map { "\($0) \(reason)" } ?? reason }
}

/// The connection and its requests. Every member but `loop`, `configuration` and `controlToken` is touched on
/// `loop` only.
// SAFETY: `connection` and `waiting` are read and written only inside work run on `loop`
// (`loop.execute`, connection callbacks; `withConnection` checks it in debug builds); the other
// stored properties are immutable and Sendable.
final class DeviceLink: @unchecked Sendable {
    let loop: EventLoop
    let configuration: HTTP2ClientConnection.Configuration
    private var connection: HTTP2ClientConnection?
    private var waiting: [(Result<HTTP2ClientConnection, HTTP2ConnectionError>) -> Void] = []

    /// Sent as `authorization: bearer` with every request, when the emulator has a control token.
    let controlToken: String?

    init(loop: EventLoop, configuration: HTTP2ClientConnection.Configuration, controlToken: String? = nil) {
        self.controlToken = controlToken
        self.loop = loop
        self.configuration = configuration
    }

    /// A complete request: the response, or the emulator's `{"reason": ...}` as an error.
    func request(_ method: String, _ path: String, json body: [UInt8] = []) async throws(SimulatedDeviceError)
        -> HTTP2Response
    {
        let headers = requestHeaders(method, path, hasBody: !body.isEmpty)
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<HTTP2Response, SimulatedDeviceError>, Never>) in
            let submitted = loop.execute { [self] in
                withConnection { opened in
                    switch opened {
                    case .failure(let error):
                        continuation.resume(returning: .failure(SimulatedDeviceError(status: nil, reason: "\(error)")))
                    case .success(let connection):
                        connection.submit(headers: nil, extraHeaders: headers, body: body, timeout: .seconds(10)) {
                            result in
                            continuation.resume(
                                returning: result.mapError { SimulatedDeviceError(status: nil, reason: "\($0)") })
                        }
                    }
                }
            }
            if !submitted {
                continuation.resume(
                    returning: .failure(SimulatedDeviceError(status: nil, reason: "the event loop has shut down")))
            }
        }
        let response = try result.get()
        guard (200..<300).contains(response.status) else { throw Self.rejection(response.status, response.body) }
        return response
    }

    /// The long-lived notifications request: each complete line goes to `onLine`; `onEnd` is
    /// called once (nil when the emulator finished the stream). Returns a cancel function.
    func stream(
        _ path: String, onLine: @escaping @Sendable ([UInt8]) -> Void,
        onEnd: @escaping @Sendable (SimulatedDeviceError?) -> Void
    ) -> @Sendable () -> Void {
        let headers = requestHeaders("GET", path, hasBody: false)
        let handle = LoopBound(StreamHandle(), loop: loop)
        let submitted = loop.execute { [self] in
            withConnection { opened in
                guard case .success(let connection) = opened else {
                    if case .failure(let error) = opened {
                        onEnd(SimulatedDeviceError(status: nil, reason: "\(error)"))
                    }
                    return
                }
                var status = 0
                var pending: [UInt8] = []
                handle.value.request = connection.submitStreaming(
                    headers: nil, extraHeaders: headers, body: [],
                    onHead: { status = $0.status },
                    onData: { bytes in
                        pending += bytes
                        guard status == 200 else { return }  // an error body: read at the end
                        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                            onLine(Array(pending[..<newline]))
                            pending.removeSubrange(...newline)
                        }
                    },
                    completion: { result in
                        handle.value.request = nil
                        switch result {
                        case .success where status == 200: onEnd(nil)
                        case .success(let response): onEnd(Self.rejection(response.status, pending))
                        case .failure(let failure): onEnd(SimulatedDeviceError(status: nil, reason: "\(failure)"))
                        }
                    })
                handle.value.connection = connection
            }
        }
        if !submitted { onEnd(SimulatedDeviceError(status: nil, reason: "the event loop has shut down")) }
        let loop = self.loop
        return {
            loop.execute {
                if let request = handle.value.request { handle.value.connection?.cancel(request) }
            }
        }
    }

    /// Closes the connection; open requests fail, a stream ends.
    func close() {
        loop.execute { [self] in
            connection?.close()
            connection = nil
        }
    }

    // MARK: On the loop

    private func withConnection(_ body: @escaping (Result<HTTP2ClientConnection, HTTP2ConnectionError>) -> Void) {
        loop.preconditionInEventLoop()
        if let connection, connection.isReady {
            body(.success(connection))
            return
        }
        waiting.append(body)
        guard connection == nil else { return }  // connecting: the ready event serves the queue
        connection = HTTP2ClientConnection.open(on: loop, configuration: configuration) { [self] connection, event in
            switch event {
            case .ready:
                let queue = waiting
                waiting = []
                for waiter in queue { waiter(.success(connection)) }
            case .closed(let error):
                if self.connection === connection { self.connection = nil }
                let queue = waiting
                waiting = []
                for waiter in queue { waiter(.failure(error)) }
            case .draining:
                if self.connection === connection { self.connection = nil }
            case .streamsAvailable:
                break
            }
        }
    }

    private func requestHeaders(_ method: String, _ path: String, hasBody: Bool) -> HTTP2HeaderBuffer {
        var headers = HTTP2HeaderBuffer()
        headers.append(":method", method)
        headers.append(":scheme", configuration.tls == nil ? "http" : "https")
        headers.append(":path", path)
        headers.append(":authority", "\(configuration.host):\(configuration.port)")
        if hasBody { headers.append("content-type", "application/json") }
        if let controlToken { headers.append("authorization", "bearer " + controlToken) }
        return headers
    }

    static func rejection(_ status: Int, _ body: [UInt8]) -> SimulatedDeviceError {
        let reason = (try? JSONValue(parsing: body))?["reason"]?.stringValue
        return SimulatedDeviceError(status: status, reason: reason ?? String(decoding: body, as: UTF8.self))
    }
}

/// The stream's request and connection, for cancelling. Loop-confined: held in a `LoopBound`.
private final class StreamHandle {
    var request: UInt64?
    var connection: HTTP2ClientConnection?
}
