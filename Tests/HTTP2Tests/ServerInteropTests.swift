// The server against nghttp2's own command-line client and load generator.
import Foundation
import Testing

@testable import HTTP2

@Suite(.timeLimit(.minutes(1)))
struct ServerInteropTests {
    @Test func nghttpOverCleartextWithPriorKnowledge() async throws {
        let handler = TestHandler()
        try await withServer(handler: handler) { server in
            let run = try await runTool("/usr/bin/nghttp", ["-nv", "http://127.0.0.1:\(server.port)/x"])
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.contains("recv HEADERS frame"))
            #expect(run.output.contains(":status: 200"))
            #expect(run.output.contains("apns-id: 1"))
        }
        #expect(handler.snapshot.requests == 1)
        #expect(handler.snapshot.opened == handler.snapshot.closed)
    }

    @Test func nghttpOverTLSNegotiatesH2() async throws {
        let (tls, _) = try makeServerTLS()
        try await withServer(options: ServerTestOptions(tls: tls)) { server in
            let run = try await runTool("/usr/bin/nghttp", ["-nv", "https://127.0.0.1:\(server.port)/tls"])
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.contains("The negotiated protocol: h2"))
            #expect(run.output.contains(":status: 200"))
        }
    }

    @Test func h2loadOverTLSSucceedsEveryRequest() async throws {
        let (tls, _) = try makeServerTLS()
        let handler = TestHandler()
        try await withServer(handler: handler, options: ServerTestOptions(tls: tls)) { server in
            let run = try await runTool(
                "/usr/bin/h2load",
                ["-n", "2000", "-c", "2", "-m", "10", "https://127.0.0.1:\(server.port)/3/device/abcd"])
            let summary = H2LoadSummary(run.output)
            #expect(run.status == 0, "\(run.output)")
            #expect(summary.succeeded == 2000, "\(run.output)")
            #expect(summary.status2xx == 2000, "\(run.output)")
            #expect(summary.failed == 0 && summary.errored == 0, "\(run.output)")
        }
        #expect(handler.snapshot.requests == 2000)
        #expect(handler.snapshot.opened == 2)
    }

    /// APNs' pattern: one stream until the first request is accepted, then many. h2load sends its
    /// first flight (10 streams) before it has seen the server's SETTINGS, so up to 9 per connection
    /// are refused (REFUSED_STREAM, which h2load counts as errored: RFC 9113 section 5.1.2); after
    /// that it follows the limit as it changes and every request succeeds.
    @Test func h2loadFollowsAStreamLimitRaisedAfterTheFirstRequest() async throws {
        let handler = TestHandler(route: { request, responder in
            responder.connection.setMaxConcurrentStreams(1000)
            responder.respond(status: 200)
        })
        try await withServer(handler: handler, options: ServerTestOptions(initialMaxConcurrentStreams: 1)) { server in
            let run = try await runTool(
                "/usr/bin/h2load",
                ["-n", "2000", "-c", "2", "-m", "10", "http://127.0.0.1:\(server.port)/3/device/abcd"])
            let summary = H2LoadSummary(run.output)
            #expect(summary.succeeded + summary.errored == 2000, "\(run.output)")
            #expect(summary.errored <= 2 * 9, "\(run.output)")
            #expect(summary.status2xx == summary.succeeded, "\(run.output)")
        }
        #expect(handler.snapshot.requests >= 2000 - 2 * 9)
    }

    /// Every answer comes from a timer (5 ms), so flushes are driven by timers, not reads.
    @Test func h2loadGetsEveryDelayedAnswer() async throws {
        try await withServer(handler: TestHandler(route: apnsLikeRoute)) { server in
            let run = try await runTool(
                "/usr/bin/h2load", ["-n", "2000", "-c", "2", "-m", "100", "http://127.0.0.1:\(server.port)/delay/5"])
            let summary = H2LoadSummary(run.output)
            #expect(summary.succeeded == 2000, "\(run.output)")
            #expect(summary.status2xx == 2000, "\(run.output)")
        }
    }
}
