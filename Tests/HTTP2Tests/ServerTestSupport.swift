// Shared pieces of the server suites: a handler whose behaviour each test supplies, a server on
// its own loops, a thread runner for the blocking clients, and a runner for nghttp2's tools.
import Foundation
import Glibc
import HeraldTestSupport
import Synchronization

@testable import HTTP2

/// What the test handler saw.
struct HandlerLog: Sendable {
    var opened = 0
    var closed = 0
    var requests = 0
    var peerCommonNames: [String] = []
}

/// A handler that runs `route` per request (default: 200 with the path as body) and counts.
final class TestHandler: HTTP2RequestHandler {
    typealias Route = @Sendable (HTTP2Request, HTTP2Responder) -> Void
    let route: Route
    let onOpen: (@Sendable (HTTP2ServerConnectionContext) -> Void)?
    let log = AnnotatedMutex(HandlerLog())

    init(onOpen: (@Sendable (HTTP2ServerConnectionContext) -> Void)? = nil, route: Route? = nil) {
        self.onOpen = onOpen
        self.route =
            route ?? { request, responder in
                responder.respond(
                    status: 200, headers: [HTTP2Header("apns-id", "1")], body: Array((request.path ?? "").utf8))
            }
    }

    func connectionOpened(_ connection: HTTP2ServerConnectionContext) {
        let name = connection.peerCertificate?.commonName
        log.withLock {
            $0.opened += 1
            if let name { $0.peerCommonNames.append(name) }
        }
        onOpen?(connection)
    }

    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        log.withLock { $0.requests += 1 }
        route(request, responder)
    }

    func connectionClosed(_ connection: HTTP2ServerConnectionContext) {
        log.withLock { $0.closed += 1 }
    }

    var snapshot: HandlerLog { log.withLock { $0 } }
}

/// Server settings a test changes from the defaults.
struct ServerTestOptions {
    var tls: TLSContext?
    var initialMaxConcurrentStreams: UInt32?
    var handshakeTimeout: Duration?
    var idleTimeout: Duration?
    var closeTimeout: Duration?
    var maximumConnections: Int?
    var streamBufferLimit: Int?
    var firstRequestTimeout: Duration?
    var refusesConnectionsOverLimit = false
    var acceptsHTTP1 = false
    var maxBodySize: Int?
}

/// Starts a server on two fresh loops, runs `body`, then shuts down the server and the loops.
func withServer<Result>(
    handler: TestHandler = TestHandler(), options: ServerTestOptions = ServerTestOptions(),
    _ body: (HTTP2Server) async throws -> Result
) async throws -> Result {
    let loops = try EventLoopGroup(loopCount: 2, name: "server-test")
    var configuration = HTTP2Server.Configuration(
        loops: loops, tls: options.tls, initialMaxConcurrentStreams: options.initialMaxConcurrentStreams)
    if let timeout = options.handshakeTimeout { configuration.handshakeTimeout = timeout }
    if let timeout = options.closeTimeout { configuration.closeTimeout = timeout }
    configuration.idleTimeout = options.idleTimeout
    configuration.maximumConnections = options.maximumConnections
    configuration.firstRequestTimeout = options.firstRequestTimeout
    configuration.refusesConnectionsOverLimit = options.refusesConnectionsOverLimit
    if let limit = options.streamBufferLimit { configuration.streamBufferLimit = limit }
    configuration.acceptsHTTP1 = options.acceptsHTTP1
    if let limit = options.maxBodySize { configuration.session.maxBodySize = limit }
    let server: HTTP2Server
    do {
        server = try await HTTP2Server.start(configuration: configuration, handler: handler)
    } catch {
        await loops.shutdown()
        throw error
    }
    do {
        let result = try await body(server)
        await server.shutdown()
        await loops.shutdown()
        return result
    } catch {
        await server.shutdown()
        await loops.shutdown()
        throw error
    }
}

/// Runs blocking `body` on a thread of its own and returns its result.
func onThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        startThread { continuation.resume(with: Swift.Result { try body() }) }
    }
}

/// A server TLS context from a fresh test CA (localhost, 127.0.0.1, ::1), and that CA.
func makeServerTLS(
    requireClientCertificate: Bool = false, alpnProtocols: [String] = ["h2"]
) throws -> (server: TLSContext, fixture: TLSFixture) {
    let fixture = try TLSFixture()
    var configuration = fixture.serverConfiguration
    configuration.alpnProtocols = alpnProtocols
    if requireClientCertificate {
        configuration.verifyPeer = true
        configuration.trustRoots = .certificates([fixture.authority.certificate])
    }
    return (try TLSContext(configuration), fixture)
}

/// The output and exit status of one of nghttp2's command-line tools.
struct ToolRun: Sendable {
    let status: Int32
    let output: String
}

/// Runs `executable` with `arguments`, stdout and stderr into one temporary file, and waits.
func runTool(_ executable: String, _ arguments: [String]) async throws -> ToolRun {
    let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("herald-tool-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: outputURL) }
    let status = try await ChildProcess(executable, arguments, stdout: .file(outputURL.path), stderr: .standardOutput)
        .waitForExit()
    let text = try String(contentsOf: outputURL, encoding: .utf8)
    return ToolRun(status: status, output: text)
}

/// The counts in h2load's summary: "requests: N total, N started, N done, N succeeded, ..." and
/// "status codes: N 2xx, ...".
struct H2LoadSummary: Equatable {
    var succeeded = -1
    var failed = -1
    var errored = -1
    var status2xx = -1

    init(_ output: String) {
        for line in output.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
            func count(before label: String) -> Int {
                guard let index = fields.firstIndex(of: label), index > 0 else { return -1 }
                return Int(fields[index - 1]) ?? -1
            }
            if line.hasPrefix("requests:") {
                succeeded = count(before: "succeeded")
                failed = count(before: "failed")
                errored = count(before: "errored")
            } else if line.hasPrefix("status codes:") {
                status2xx = count(before: "2xx")
            }
        }
    }
}
