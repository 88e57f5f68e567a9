import APNs
import HTTP2

/// Why a lookup failed: the server could not be reached, or answered with an error.
public struct DoctorLookupError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A server the doctor reads: the emulator's control API or the gateway's HTTP API, over HTTP/2 (TLS, or h2c
/// for a plain `http://` endpoint), with a bearer token when one is given.
public struct LookupEndpoint: Sendable {
    public var host: String
    public var port: Int
    public var tls: TLSContext?
    /// Sent as `authorization: bearer TOKEN` (the emulator's control token, a gateway API key).
    public var bearer: String?

    public init(host: String, port: Int, tls: TLSContext? = nil, bearer: String? = nil) {
        self.host = host
        self.port = port
        self.tls = tls
        self.bearer = bearer
    }
}

/// GET requests for the lookups, one connection per client, on one event loop.
///
/// Thread-safety: each `get` hops to `loop`; the connection is touched there only. Requests are made one
/// at a time (each awaited before the next), as the lookups do. Lifecycle: `close()` ends the connection.
// SAFETY: `connection` is read and written only in work run on `loop` (`loop.execute`, the connection's
// callbacks, which run there); the other stored properties are immutable and Sendable.
public final class HTTPLookupClient: @unchecked Sendable {
    let endpoint: LookupEndpoint
    let loop: EventLoop
    private var connection: HTTP2ClientConnection?

    public init(_ endpoint: LookupEndpoint, loop: EventLoop) {
        self.endpoint = endpoint
        self.loop = loop
    }

    /// GETs `path` and parses the answer as JSON; a status other than 2xx is an error that quotes the body.
    public func getJSON(_ path: String) async throws(DoctorLookupError) -> JSONValue {
        let (status, body) = try await get(path)
        guard (200..<300).contains(status) else {
            throw DoctorLookupError(
                "GET \(path): \(status) \(String(decoding: body.prefix(300), as: UTF8.self))")
        }
        do {
            return try JSONValue(parsing: body)
        } catch {
            throw DoctorLookupError("GET \(path): the answer is not JSON: \(error)")
        }
    }

    /// GETs `path`; the status and body, whatever the status.
    public func get(_ path: String) async throws(DoctorLookupError) -> (status: Int, body: [UInt8]) {
        var headers = HTTP2HeaderBuffer()
        headers.append(":method", "GET")
        headers.append(":scheme", endpoint.tls == nil ? "http" : "https")
        headers.append(":path", path)
        headers.append(":authority", "\(endpoint.host):\(endpoint.port)")
        if let bearer = endpoint.bearer { headers.append("authorization", "bearer " + bearer) }
        let request = headers
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<HTTP2Response, DoctorLookupError>, Never>) in
            let submitted = loop.execute { [self] in
                withConnection { opened in
                    switch opened {
                    case .failure(let error):
                        continuation.resume(returning: .failure(self.unreachable(error)))
                    case .success(let connection):
                        connection.submit(headers: nil, extraHeaders: request, body: [], timeout: .seconds(10)) {
                            result in
                            continuation.resume(returning: result.mapError { self.unreachable($0) })
                        }
                    }
                }
            }
            if !submitted {
                continuation.resume(returning: .failure(DoctorLookupError("the event loop has shut down")))
            }
        }
        let response = try result.get()
        return (response.status, response.body)
    }

    public func close() {
        loop.execute { [self] in
            connection?.close()
            connection = nil
        }
    }

    private func unreachable(_ error: some Error) -> DoctorLookupError {
        DoctorLookupError("\(endpoint.host):\(endpoint.port): \(error)")
    }

    private func withConnection(_ body: @escaping (Result<HTTP2ClientConnection, HTTP2ConnectionError>) -> Void) {
        loop.preconditionInEventLoop()
        if let connection, connection.isReady {
            body(.success(connection))
            return
        }
        var session = HTTP2SessionConfiguration()
        session.maxBodySize = 16 << 20  // a page of 1,000 log entries with their payloads
        let configuration = HTTP2ClientConnection.Configuration(
            host: endpoint.host, port: endpoint.port, tls: endpoint.tls, session: session)
        var answered = false
        connection = HTTP2ClientConnection.open(on: loop, configuration: configuration) { connection, event in
            switch event {
            case .ready:
                guard !answered else { return }
                answered = true
                body(.success(connection))
            case .closed(let error):
                if self.connection === connection { self.connection = nil }
                guard !answered else { return }
                answered = true
                body(.failure(error))
            default:
                break
            }
        }
    }
}
