// HTTP/1.1 and HTTP/2 on one port, over loopback: curl (plain, h2c prior knowledge, TLS with ALPN
// both ways) and a raw socket for what curl does not send (pipelining, malformed requests).
import Foundation
import Synchronization
import Testing

@testable import HTTP2

/// Answers `<method> <path> <body bytes> <byte sum>`; 413 for a body over the limit; `/delay/N`
/// after N ms; `/stream` as three writes from timers.
@Sendable func http1TestRoute(_ request: HTTP2Request, _ responder: HTTP2Responder) {
    let path = request.path ?? ""
    if request.exceededBodyLimit {
        responder.respond(status: 413, body: Array("too large\n".utf8))
    } else if path.hasPrefix("/delay/"), let milliseconds = UInt64(path.dropFirst("/delay/".count)) {
        responder.connection.loop.schedule(after: milliseconds * 1_000_000) {
            responder.respond(status: 200, body: Array(path.utf8))
        }
    } else if path == "/stream" {
        responder.startStreaming(status: 200, headers: [HTTP2Header("content-type", "text/plain")])
        responder.write(Array("one ".utf8))
        responder.connection.loop.schedule(after: 5_000_000) { responder.write(Array("two ".utf8)) }
        responder.connection.loop.schedule(after: 10_000_000) {
            responder.write(Array("three".utf8))
            responder.finish()
        }
    } else {
        let sum = request.body.reduce(0) { $0 + Int($1) }
        let text = "\(request.method ?? "") \(path) \(request.body.count) \(sum)"
        responder.respond(status: 200, headers: [HTTP2Header("content-type", "text/plain")], body: Array(text.utf8))
    }
}

@Suite(.timeLimit(.minutes(1)))
struct HTTP1ServerTests {
    static let options = ServerTestOptions(acceptsHTTP1: true)

    @Test func curlSpeaksHTTP1AndHTTP2WithPriorKnowledgeOnOnePort() async throws {
        let handler = TestHandler(route: http1TestRoute)
        try await withServer(handler: handler, options: Self.options) { server in
            let url = "http://127.0.0.1:\(server.port)/one"
            let http1 = try await runCurl(["-w", " %{http_version}", url])
            #expect(http1.status == 0 && http1.output == "GET /one 0 0 1.1", "\(http1.output)")
            let http2 = try await runCurl(["--http2-prior-knowledge", "-w", " %{http_version}", url])
            #expect(http2.status == 0 && http2.output == "GET /one 0 0 2", "\(http2.output)")
        }
        #expect(handler.snapshot.requests == 2)
    }

    /// curl's `--http2` over plain http asks to upgrade to h2c; the server answers in HTTP/1.1.
    @Test func anUpgradeToH2cIsAnsweredInHTTP1() async throws {
        try await withServer(handler: TestHandler(route: http1TestRoute), options: Self.options) { server in
            let run = try await runCurl(["--http2", "-w", " %{http_version}", "http://127.0.0.1:\(server.port)/up"])
            #expect(run.status == 0 && run.output == "GET /up 0 0 1.1", "\(run.output)")
        }
    }

    @Test(arguments: [
        (["--http1.1"], "1.1"),
        (["--http2"], "2"),
        (["--http1.1", "--no-alpn"], "1.1"),
    ])
    func curlOverTLSGetsTheProtocolALPNChooses(_ flags: [String], _ version: String) async throws {
        let (tls, fixture) = try makeServerTLS(alpnProtocols: ["h2", "http/1.1"])
        let scratch = try TLSScratchDirectory()
        let ca = try scratch.write("ca.pem", try fixture.authority.certificate.pem())
        var options = Self.options
        options.tls = tls
        try await withServer(handler: TestHandler(route: http1TestRoute), options: options) { server in
            let run = try await runCurl(
                flags + [
                    "--cacert", ca, "--resolve", "localhost:\(server.port):127.0.0.1", "-w", " %{http_version}",
                    "https://localhost:\(server.port)/tls",
                ])
            #expect(run.status == 0 && run.output == "GET /tls 0 0 \(version)", "\(run.output)")
        }
    }

    @Test func aServerThatDoesNotAcceptHTTP1AnswersNoHTTP1Request() async throws {
        let handler = TestHandler(route: http1TestRoute)
        try await withServer(handler: handler) { server in
            let run = try await runCurl(["http://127.0.0.1:\(server.port)/refused"])
            #expect(run.status != 0, "\(run.output)")
        }
        #expect(handler.snapshot.requests == 0)
    }

    @Test func aTLSContextWithoutHTTP1sALPNIsRefusedAtStart() async throws {
        let (tls, _) = try makeServerTLS()
        var options = Self.options
        options.tls = tls
        await #expect {
            try await withServer(options: options) { _ in }
        } throws: { error in
            "\(error)".contains("http/1.1")
        }
    }

    @Test func keepAliveServesSeveralRequestsOnOneConnection() async throws {
        let handler = TestHandler(route: http1TestRoute)
        try await withServer(handler: handler, options: Self.options) { server in
            let base = "http://127.0.0.1:\(server.port)"
            let run = try await runCurl(["\(base)/a", "\(base)/b", "\(base)/c"])
            #expect(run.status == 0 && run.output == "GET /a 0 0GET /b 0 0GET /c 0 0", "\(run.output)")
        }
        #expect(handler.snapshot.requests == 3)
        #expect(handler.snapshot.opened == 1)
    }

    @Test func pipelinedRequestsAreAnsweredInRequestOrder() async throws {
        try await withServer(handler: TestHandler(route: http1TestRoute), options: Self.options) { server in
            let port = server.port
            let requests =
                "GET /delay/40 HTTP/1.1\r\nHost: h\r\n\r\nGET /delay/1 HTTP/1.1\r\nHost: h\r\n\r\n"
                + "GET /now HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"
            let output = try await onThread { try rawHTTPExchange(port: port, writes: [Array(requests.utf8)]) }
            let bodies = output.components(separatedBy: "\r\n\r\n").dropFirst().map {
                $0.components(separatedBy: "HTTP/1.1")[0]
            }
            #expect(bodies == ["/delay/40", "/delay/1", "GET /now 0 0"], "\(output)")
        }
    }

    /// The first request ends the first-request timeout on HTTP/1.1 as on HTTP/2: an answer that
    /// takes longer than that timeout still arrives, and so does the next request's.
    @Test func aRequestEndsTheFirstRequestTimeout() async throws {
        var options = Self.options
        options.firstRequestTimeout = .milliseconds(150)
        try await withServer(handler: TestHandler(route: http1TestRoute), options: options) { server in
            let port = server.port
            let requests =
                "GET /delay/400 HTTP/1.1\r\nHost: h\r\n\r\n"
                + "GET /now HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"
            let output = try await onThread { try rawHTTPExchange(port: port, writes: [Array(requests.utf8)]) }
            let bodies = output.components(separatedBy: "\r\n\r\n").dropFirst().map {
                $0.components(separatedBy: "HTTP/1.1")[0]
            }
            #expect(bodies == ["/delay/400", "GET /now 0 0"], "\(output)")
        }
    }

    @Test func aChunkedUploadArrivesWhole() async throws {
        let scratch = try TLSScratchDirectory()
        let body = patternBytes(50_000)
        let file = scratch.path("body")
        try Data(body).write(to: URL(fileURLWithPath: file))
        try await withServer(handler: TestHandler(route: http1TestRoute), options: Self.options) { server in
            let run = try await runCurl([
                "-H", "Transfer-Encoding: chunked", "--data-binary", "@\(file)", "http://127.0.0.1:\(server.port)/up",
            ])
            #expect(run.output == "POST /up 50000 \(body.reduce(0) { $0 + Int($1) })", "\(run.output)")
        }
    }

    @Test(arguments: [[], ["-H", "Transfer-Encoding: chunked"]])
    func aBodyOverTheLimitReachesTheHandlerFlaggedAndIsAnswered413(_ flags: [String]) async throws {
        let scratch = try TLSScratchDirectory()
        let file = scratch.path("body")
        try Data(patternBytes(20_000)).write(to: URL(fileURLWithPath: file))
        let flagged = Mutex(0)
        let handler = TestHandler(route: { request, responder in
            if request.exceededBodyLimit { flagged.withLock { $0 += 1 } }
            http1TestRoute(request, responder)
        })
        var options = Self.options
        options.maxBodySize = 10_000
        try await withServer(handler: handler, options: options) { server in
            let run = try await runCurl(
                flags + ["--data-binary", "@\(file)", "-w", "%{http_code}", "http://127.0.0.1:\(server.port)/big"])
            #expect(run.output == "too large\n413", "\(run.output)")
        }
        #expect(flagged.withLock { $0 } == 1)
    }

    @Test func aMalformedRequestIsAnswered400AfterThoseBeforeItAndTheConnectionCloses() async throws {
        try await withServer(handler: TestHandler(route: http1TestRoute), options: Self.options) { server in
            let port = server.port
            let output = try await onThread {
                try rawHTTPExchange(
                    port: port, writes: [Array("GET /ok HTTP/1.1\r\nHost: h\r\n\r\nNOT HTTP AT ALL\r\n\r\n".utf8)])
            }
            #expect(output.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(output)")
            #expect(output.contains("GET /ok 0 0HTTP/1.1 400 Bad Request\r\n"), "\(output)")
            #expect(output.contains("connection: close\r\n"))
        }
    }

    @Test func headIsAnsweredWithoutABody() async throws {
        try await withServer(handler: TestHandler(route: http1TestRoute), options: Self.options) { server in
            let port = server.port
            let output = try await onThread {
                try rawHTTPExchange(
                    port: port, writes: [Array("HEAD /h HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n".utf8)])
            }
            #expect(output.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(output)")
            #expect(output.contains("content-length: 11\r\n"), "\(output)")  // "HEAD /h 0 0"
            #expect(output.hasSuffix("\r\n\r\n"), "\(output)")
        }
    }

    @Test func anHTTP10RequestIsAnsweredAndTheConnectionClosed() async throws {
        try await withServer(handler: TestHandler(route: http1TestRoute), options: Self.options) { server in
            let port = server.port
            let output = try await onThread {
                try rawHTTPExchange(port: port, writes: [Array("GET /old HTTP/1.0\r\n\r\n".utf8)])
            }
            #expect(output.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(output)")
            #expect(output.hasSuffix("\r\nconnection: close\r\n\r\nGET /old 0 0"), "\(output)")
            let curl = try await runCurl(["--http1.0", "-w", " %{http_version}", "http://127.0.0.1:\(port)/old"])
            #expect(curl.output == "GET /old 0 0 1.1", "\(curl.output)")
        }
    }

    /// A client that never finishes its first request head is dropped at `handshakeTimeout`; one
    /// whose head arrived in time is not, however long its body takes.
    @Test func theFirstRequestHeadMustArriveWithinTheHandshakeTimeout() async throws {
        var options = Self.options
        options.handshakeTimeout = .milliseconds(200)
        let handler = TestHandler(route: http1TestRoute)
        try await withServer(handler: handler, options: options) { server in
            let port = server.port
            // The server closes the connection (had it not, the client's read would time out and throw).
            let output = try await onThread { try rawHTTPExchange(port: port, writes: [Array("GET /slow HT".utf8)]) }
            #expect(output.isEmpty)
            let slowBody = try await onThread {
                try rawHTTPExchange(
                    port: port,
                    writes: [
                        Array("POST /b HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\nConnection: close\r\n\r\n".utf8),
                        [], Array("ok".utf8),
                    ], pause: .milliseconds(400))
            }
            #expect(slowBody.hasSuffix("POST /b 2 218"), "\(slowBody)")
        }
        #expect(handler.snapshot.requests == 1)
    }

    /// HTTP/1.1 has no GOAWAY: the handler's goAway() and the idle timeout close the connection
    /// after the answers already due; the client, which asked for keep-alive, sees it close.
    @Test(arguments: [false, true])
    func goAwayAndTheIdleTimeoutCloseAnHTTP1Connection(_ idle: Bool) async throws {
        var options = Self.options
        if idle { options.idleTimeout = .milliseconds(100) }
        let handler = TestHandler(route: { request, responder in
            if !idle { responder.connection.goAway() }
            http1TestRoute(request, responder)
        })
        try await withServer(handler: handler, options: options) { server in
            let port = server.port
            let output = try await onThread {
                try rawHTTPExchange(port: port, writes: [Array("GET /bye HTTP/1.1\r\nHost: h\r\n\r\n".utf8)])
            }
            #expect(output.hasPrefix("HTTP/1.1 200 OK\r\n") && output.hasSuffix("GET /bye 0 0"), "\(output)")
            #expect(output.contains("connection: close\r\n") == !idle, "\(output)")
        }
        #expect(handler.snapshot.closed == 1)
    }

    @Test func aStreamingResponseIsChunkedOverHTTP1() async throws {
        try await withServer(handler: TestHandler(route: http1TestRoute), options: Self.options) { server in
            let run = try await runCurl(["-i", "http://127.0.0.1:\(server.port)/stream"])
            #expect(run.output.contains("transfer-encoding: chunked\r\n"), "\(run.output)")
            #expect(run.output.hasSuffix("\r\n\r\none two three"), "\(run.output)")
        }
    }
}
