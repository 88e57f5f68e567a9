import APNs
import APNsClient
import Emulator
import Keys
import HTTP2
import Synchronization
import Testing

/// A server that answers most requests with 200 and injects every fault a client must survive:
/// 500/503/429, REFUSED_STREAM, slow answers, GOAWAY mid-flight, dropped connections, requests
/// never answered. Decisions are drawn from a seeded generator per loop.
final class FaultyHandler: HTTP2RequestHandler {
    struct Counts {
        var requests = 0
        var ok = 0
        var errors = 0
        var refused = 0
        var delayed = 0
        var goAways = 0
        var drops = 0
    }

    let counts = AnnotatedMutex(Counts())
    private let seed = Atomic<UInt64>(0x5EED)

    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        let draw = next() % 10_000
        counts.withLock { $0.requests += 1 }
        let id = request.headers.value(for: "apns-id") ?? ""
        switch draw {
        case 0..<600:
            let (status, reason) = [(500, "InternalServerError"), (503, "ServiceUnavailable"), (429, "TooManyRequests")][Int(draw % 3)]
            counts.withLock { $0.errors += 1 }
            _ = responder.respond(
                status: status, headers: [HTTP2Header("apns-id", id), HTTP2Header("content-type", "application/json")],
                body: Array(#"{"reason":"\#(reason)"}"#.utf8))
        case 600..<1000:
            counts.withLock { $0.refused += 1 }
            _ = responder.reset(errorCode: .refusedStream)
        case 1000..<1100:
            counts.withLock { $0.delayed += 1 }
            responder.connection.loop.schedule(after: 20_000_000) {
                _ = responder.respond(status: 200, headers: [HTTP2Header("apns-id", id)])
            }
        case 1100..<1104:
            counts.withLock { $0.goAways += 1 }
            _ = responder.connection.goAway(debugData: Array(#"{"reason":"Shutdown"}"#.utf8))
            _ = responder.respond(status: 200, headers: [HTTP2Header("apns-id", id)])
        case 1104..<1107:
            counts.withLock { $0.drops += 1 }
            _ = responder.connection.close()
        default:
            counts.withLock { $0.ok += 1 }
            _ = responder.respond(status: 200, headers: [HTTP2Header("apns-id", id)])
        }
    }

    private func next() -> UInt64 {
        // SplitMix64 over an atomic counter: deterministic per run order, safe from any loop.
        SplitMix64.mix(seed.wrappingAdd(SplitMix64.increment, ordering: .relaxed).newValue)
    }
}

@Suite(.timeLimit(.minutes(3)))
struct StressTests {
    /// Every request ends exactly once, in success or a definitive error, and the counts add up.
    @Test func hundredThousandRequestsThroughInjectedFaults() async throws {
        let total = 100_000
        let loops = try EventLoopGroup(loopCount: 2, name: "faulty")
        let handler = FaultyHandler()
        let server = try await HTTP2Server.start(
            configuration: HTTP2Server.Configuration(loops: loops, initialMaxConcurrentStreams: 200), handler: handler)
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(server.port)")
        let transport = try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint, maximumConnections: 4))
        let client = APNsClient(
            endpoint: endpoint, credentials: .certificate, transport: transport,
            retryPolicy: RetryPolicy(maximumAttempts: 4, baseDelay: .microseconds(200), maximumDelay: .milliseconds(2)),
            requestTimeout: .seconds(20))
        let note = APNs.Notification(
            token: try DeviceToken(hex: String(repeating: "cd", count: 32)), topic: try Topic("com.example.app"),
            payload: Payload.alert(body: "stress"))

        let outcomes = await withTaskGroup(of: Result<APNsResponse, APNsClientError>.self) { group in
            var succeeded = 0
            var failed: [String: Int] = [:]
            var issued = 0
            var running = 0
            while issued < total || running > 0 {
                while running < 500, issued < total {
                    issued += 1
                    running += 1
                    group.addTask { await client.result(for: note) }
                }
                guard let result = await group.next() else { break }
                running -= 1
                switch result {
                case .success: succeeded += 1
                case .failure(let error): failed[Self.label(error), default: 0] += 1
                }
            }
            return (succeeded, failed)
        }
        let (succeeded, failed) = outcomes
        let failures = failed.values.reduce(0, +)
        #expect(succeeded + failures == total, "every request ended exactly once")
        // Only definitive errors remain: exhausted retries of 5xx/429, or requests lost with a
        // dropped connection (which may have reached the server, so they are not resent).
        #expect(Set(failed.keys).isSubset(of: ["InternalServerError", "ServiceUnavailable", "TooManyRequests", "transport"]), "\(failed)")
        #expect(succeeded > total * 9 / 10, "\(succeeded) succeeded, \(failed)")
        let metrics = client.metrics
        #expect(metrics.succeeded == succeeded && metrics.failed == failures && metrics.inFlight == 0)
        let counts = handler.counts.withLock { $0 }
        #expect(counts.requests >= total, "resends add requests, never fewer than sent")
        #expect(counts.goAways > 0 && counts.drops > 0 && counts.refused > 0 && counts.delayed > 0)
        #expect(transport.resentCount >= counts.refused / 2, "refused streams were resent by the transport")

        await client.shutdown()
        await server.shutdown()
        await loops.shutdown()
    }

    static func label(_ error: APNsClientError) -> String {
        switch error {
        case .rejected(let rejection): rejection.reason.rawValue
        case .transport: "transport"
        case .timedOut: "timeout"
        default: "other: \(error)"
        }
    }
}

/// The same stress, against Herald's emulator with its fault injection: every answer is an APNs
/// answer (validation and provider tokens included), faults are declared through the same API tests use.
@Suite(.timeLimit(.minutes(3)))
struct EmulatorStressTests {
    @Test func twentyThousandRequestsThroughTheEmulatorsFaults() async throws {
        let total = 20_000
        let key = try P256PrivateKey.generate()
        let loops = try EventLoopGroup(loopCount: 2, name: "emulator-stress")
        let emulator = try await Emulator.start(
            EmulatorConfiguration(keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)]),
            loops: loops)
        let faults: [Fault] = [
            Fault(action: .respond(status: 503, reason: .serviceUnavailable), selection: .fraction(0.02)),
            Fault(action: .respond(status: 500, reason: .internalServerError), selection: .fraction(0.02)),
            Fault(action: .respond(status: 429, reason: .tooManyRequests), selection: .fraction(0.02)),
            Fault(action: .reset(.refusedStream), selection: .fraction(0.04)),
            Fault(action: .delay, selection: .fraction(0.01), latencyMilliseconds: 20),
            Fault(action: .goAway(reason: .shutdown), selection: .fraction(0.0005)),
            Fault(action: .disconnect, selection: .fraction(0.0003)),
        ]
        for fault in faults { emulator.faults.add(fault) }
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(emulator.port)")
        let transport = try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint, maximumConnections: 4))
        let signer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let client = APNsClient(
            endpoint: endpoint, credentials: .token(try ProviderTokenCache(signer: signer)), transport: transport,
            retryPolicy: RetryPolicy(maximumAttempts: 4, baseDelay: .microseconds(200), maximumDelay: .milliseconds(2)),
            requestTimeout: .seconds(20))
        let note = APNs.Notification(
            token: try DeviceToken(hex: String(repeating: "cd", count: 32)), topic: try Topic("com.example.app"),
            payload: Payload.alert(body: "stress"))

        var succeeded = 0
        var failed: [String: Int] = [:]
        await client.sendAll(Array(repeating: note, count: total), concurrency: 400) { _, result in
            switch result {
            case .success: succeeded += 1
            case .failure(let error): failed[StressTests.label(error), default: 0] += 1
            }
        }
        let failures = failed.values.reduce(0, +)
        #expect(succeeded + failures == total, "every request ended exactly once")
        #expect(Set(failed.keys).isSubset(of: ["InternalServerError", "ServiceUnavailable", "TooManyRequests", "transport"]), "\(failed)")
        // A dropped connection takes its requests in flight with it (up to ~100 each, more under
        // load), so the share that succeeds varies; the exactly-once count above is the point.
        #expect(succeeded > total * 3 / 4, "\(succeeded) succeeded, \(failed)")
        let metrics = client.metrics
        #expect(metrics.succeeded == succeeded && metrics.failed == failures && metrics.inFlight == 0)
        let counts = emulator.log.counts
        // Every success was accepted once; the only accepted requests the client did not see succeed
        // are those whose answer died with a dropped connection (reported "may have reached APNs").
        let accepted = counts.byStatus[200] ?? 0
        #expect(accepted >= succeeded && accepted <= succeeded + failed["transport", default: 0], "\(accepted) accepted, \(failed)")
        #expect(counts.total >= total, "resends add requests, never fewer than sent")
        let applied = emulator.faults.list().map(\.applied)
        #expect(applied.prefix(5).allSatisfy { $0 > 0 }, "every common fault was injected: \(applied)")

        await client.shutdown()
        await emulator.shutdown()
        await loops.shutdown()
    }
}
