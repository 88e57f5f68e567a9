// What the emulator relies on: per-connection state, the stream limit raised after the first
// request, delayed answers, GOAWAY with debug data, answers that count once.
import Foundation
import Keys
import Synchronization
import Testing

@testable import HTTP2

/// Answers "/delay/<ms>" after that many milliseconds, "/auth" by raising the stream limit,
/// "/goaway" with GOAWAY {"reason":"Shutdown"} and then a 200, anything else at once.
@Sendable func apnsLikeRoute(_ request: HTTP2Request, _ responder: HTTP2Responder) {
    let path = request.path ?? ""
    let body = Array(path.utf8)
    if path.hasPrefix("/delay/"), let milliseconds = UInt64(path.dropFirst("/delay/".count)) {
        responder.connection.loop.schedule(after: milliseconds * 1_000_000) {
            responder.respond(status: 200, body: body)
        }
    } else if path == "/auth" {
        responder.connection.setMaxConcurrentStreams(1000)
        responder.respond(status: 200, body: body)
    } else if path == "/goaway" {
        responder.connection.goAway(errorCode: .noError, debugData: Array(#"{"reason":"Shutdown"}"#.utf8))
        responder.respond(status: 200, body: body)
    } else {
        responder.respond(status: 200, body: body)
    }
}

@Suite(.timeLimit(.minutes(1)))
struct ServerBehaviourTests {
    @Test func streamLimitStartsAtOneAndIsRaisedAfterTheFirstRequest() async throws {
        let highestOpen = Mutex(0)
        let handler = TestHandler(route: { request, responder in
            highestOpen.withLock { $0 = max($0, responder.connection.openStreams) }
            apnsLikeRoute(request, responder)
        })
        try await withServer(handler: handler, options: ServerTestOptions(initialMaxConcurrentStreams: 1)) { server in
            let port = server.port
            let limits = try await onThread { () -> [UInt32] in
                let client = try ServerTestClient(port: port)
                try client.run { !client.settings.isEmpty }  // wait for SETTINGS, as APNs clients must
                var limits = [client.session.remoteMaxConcurrentStreams]
                let queued = try (0..<3).map { _ in try client.request("/delay/20") }
                try client.waitFor(queued)  // one at a time: the client holds the others back
                _ = try client.send("/auth")
                limits.append(client.session.remoteMaxConcurrentStreams)
                let many = try (0..<50).map { _ in try client.request("/delay/50") }
                try client.waitFor(many)
                #expect(many.allSatisfy { client.response($0)?.status == 200 })
                return limits
            }
            #expect(limits == [1, 1000])
        }
        #expect(highestOpen.withLock { $0 } > 1)  // after the raise, requests overlapped
    }

    @Test func delayedAnswersArriveInTheOrderTheirTimersFire() async throws {
        let handler = TestHandler(route: apnsLikeRoute)
        try await withServer(handler: handler) { server in
            let port = server.port
            let (order, elapsed) = try await onThread { () -> ([String], Double) in
                let client = try ServerTestClient(port: port)
                let start = monotonicSeconds()
                let tokens = try ["/delay/300", "/delay/10", "/delay/150"].map { try client.request($0) }
                try client.waitFor(tokens)
                let order = client.finished.map { String(decoding: client.response($0)?.body ?? [], as: UTF8.self) }
                return (order, monotonicSeconds() - start)
            }
            #expect(order == ["/delay/10", "/delay/150", "/delay/300"])
            #expect(elapsed >= 0.3)
        }
    }

    @Test func goAwayCarriesDebugDataAndLetsProcessedStreamsFinish() async throws {
        try await withServer(handler: TestHandler(route: apnsLikeRoute)) { server in
            let port = server.port
            let (status, goAways, lastStream) = try await onThread { () -> (Int?, [HTTP2GoAway], Int32) in
                let client = try ServerTestClient(port: port)
                _ = try client.send("/first")
                let token = try client.request("/goaway")
                try client.waitFor([token])
                try client.waitForEndOfFile()
                return (client.response(token)?.status, client.goAways, 3)
            }
            #expect(status == 200)
            #expect(goAways.count == 1)
            #expect(goAways.first?.errorCode == .noError)
            #expect(goAways.first?.lastStreamID == lastStream)
            #expect(goAways.first?.debugText == #"{"reason":"Shutdown"}"#)
            await server.waitUntil { $0.open == 0 }
        }
    }

    @Test func aStreamIsAnsweredOnceAndLateAnswersAreHarmless() async throws {
        let (outcomes, record) = AsyncStream.makeStream(of: String.self)
        let handler = TestHandler(route: { request, responder in
            switch request.path {
            case "/twice":
                let first = responder.respond(status: 200)
                let second = responder.respond(status: 500)
                let reset = responder.reset(errorCode: .cancel)
                record.yield("twice \(first) \(second) \(reset)")
            case "/late":
                responder.connection.loop.schedule(after: 100_000_000) {
                    record.yield("late \(responder.respond(status: 200)) open \(responder.connection.isOpen)")
                }
                responder.connection.close()
            default:
                responder.respond(status: 200)
            }
        })
        try await withServer(handler: handler) { server in
            let port = server.port
            let status = try await onThread { () -> Int in
                let client = try ServerTestClient(port: port)
                let status = try client.send("/twice").status
                try client.request("/late")
                try client.waitForEndOfFile()  // the handler closed the connection
                return status
            }
            #expect(status == 200)
            var iterator = outcomes.makeAsyncIterator()
            #expect(await iterator.next() == "twice true false false")
            #expect(await iterator.next() == "late false open false")
        }
    }

    @Test func resetsAndInvalidAnswersReachTheClientAsStreamErrors() async throws {
        let handler = TestHandler(route: { request, responder in
            switch request.path {
            case "/refuse": responder.reset(errorCode: .refusedStream)
            case "/bad-status": responder.respond(status: 99)
            case "/bad-header": responder.respond(status: 200, headers: [HTTP2Header("Upper", "x")])
            default: responder.respond(status: 200)
            }
        })
        try await withServer(handler: handler) { server in
            let port = server.port
            let kinds = try await onThread { () -> [HTTP2StreamError.Kind?] in
                let client = try ServerTestClient(port: port)
                let tokens = try ["/refuse", "/bad-status", "/bad-header"].map { try client.request($0) }
                try client.waitFor(tokens)
                _ = try client.send("/still-fine")
                return tokens.map { client.failure($0)?.kind }
            }
            #expect(kinds == [.refused, .reset(.internalError), .reset(.internalError)])
        }
    }

    @Test func oversizedHeadersFailOneStreamNotTheConnection() async throws {
        let handler = TestHandler()
        try await withServer(handler: handler) { server in
            let port = server.port
            let (failed, next) = try await onThread { () -> (Bool, Int) in
                let client = try ServerTestClient(port: port)
                let huge = try client.request(
                    "/huge", headers: [HTTP2Header("x-big", String(repeating: "a", count: 20_000))])
                try client.waitFor([huge])
                return (client.failure(huge) != nil, try client.send("/next").status)
            }
            #expect(failed)
            #expect(next == 200)
        }
        #expect(handler.snapshot.requests == 1)
    }

    @Test func clientCertificateIsKnownWhenTheConnectionOpens() async throws {
        let (tls, fixture) = try makeServerTLS(requireClientCertificate: true)
        let (clientCertificate, clientKey) = try fixture.authority.issue(commonName: "com.example.app", isClient: true)
        let clientTLS = try TLSContext(
            .client(
                serverHostname: "localhost", trustRoots: .certificates([fixture.authority.certificate]),
                certificateChain: [clientCertificate], privateKey: clientKey))
        let handler = TestHandler(route: { _, responder in
            responder.respond(status: 200, body: Array((responder.connection.peerCertificate?.commonName ?? "").utf8))
        })
        try await withServer(handler: handler, options: ServerTestOptions(tls: tls)) { server in
            let port = server.port
            let body = try await onThread { () -> [UInt8] in
                let client = try ServerTestClient(port: port, tls: clientTLS)
                return try client.send("/3/device/abcd").body
            }
            #expect(String(decoding: body, as: UTF8.self) == "com.example.app")
        }
        #expect(handler.snapshot.peerCommonNames == ["com.example.app"])
    }

    @Test func userDataIsPerConnection() async throws {
        final class Counter {
            var count = 0
        }
        let handler = TestHandler(
            onOpen: { connection in connection.userData = Counter() },
            route: { _, responder in
                guard let counter = responder.connection.userData as? Counter else {
                    responder.respond(status: 500)
                    return
                }
                counter.count += 1
                responder.respond(status: 200, body: Array("\(counter.count)".utf8))
            })
        try await withServer(handler: handler) { server in
            let port = server.port
            let bodies = try await onThread { () -> [String] in
                var bodies: [String] = []
                for _ in 0..<2 {
                    let client = try ServerTestClient(port: port)
                    for _ in 0..<3 { bodies.append(String(decoding: try client.send("/count").body, as: UTF8.self)) }
                }
                return bodies
            }
            #expect(bodies == ["1", "2", "3", "1", "2", "3"])
        }
    }

    @Test func aSendableResponderAnswersFromAnotherThread() async throws {
        let handler = TestHandler(route: { request, responder in
            let sendable = responder.sendable
            let path = request.path ?? ""
            Task.detached {
                sendable.respond(status: 202, headers: [HTTP2Header("x-path", path)])
                sendable.respond(status: 500)  // ignored: answered already
            }
        })
        try await withServer(handler: handler) { server in
            let port = server.port
            let responses = try await onThread { () -> [HTTP2Response] in
                let client = try ServerTestClient(port: port)
                return try (0..<10).map { try client.send("/elsewhere/\($0)") }
            }
            #expect(responses.map(\.status) == Array(repeating: 202, count: 10))
            #expect(responses.last?.headers.value(for: "x-path") == "/elsewhere/9")
        }
    }
}
