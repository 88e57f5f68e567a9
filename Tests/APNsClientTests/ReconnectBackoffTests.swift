import APNs
import Foundation
import HeraldTestSupport
import Testing

@testable import APNsClient

/// The pool's reconnect backoff: 100 ms doubling to 30 s, jittered by 0.5...1, on an injected clock.
@Suite(.timeLimit(.minutes(1)))
struct ReconnectBackoffTests {
    static let millisecond: UInt64 = 1_000_000
    static let second: UInt64 = 1_000_000_000

    @Test(arguments: [
        (1, 100 * millisecond), (2, 200 * millisecond), (3, 400 * millisecond), (4, 800 * millisecond),
        (9, 25_600 * millisecond), (10, 30 * second), (11, 30 * second), (1000, 30 * second),
    ])
    func delayDoublesFromAHundredMillisecondsToThirtySeconds(failures: Int, delay: UInt64) {
        #expect(ReconnectBackoff.delay(afterFailures: failures) == delay)
    }

    @Test(arguments: [0.0, 0.5, 0.75, 1.0, 2.0])
    func jitterScalesTheDelayByAHalfToOne(jitter: Double) {
        var backoff = ReconnectBackoff()
        let now = 5 * Self.second
        backoff.failed(now: now, jitter: jitter)
        let scale = min(max(jitter, 0.5), 1.0)
        #expect(backoff.wait(now: now) == UInt64(Double(100 * Self.millisecond) * scale))
        #expect(backoff.wait(now: backoff.nextAttemptAt) == 0)
    }

    /// A pool asked to connect every millisecond of fake time, against a server that always
    /// refuses: connects are spaced by at least half of each doubling delay, never closer than
    /// 50 ms, and in ten minutes there are a few dozen, not hundreds of thousands.
    @Test func neverReconnectsInATightLoop() {
        var generator = SplitMix(seed: 42)
        var backoff = ReconnectBackoff()
        var attempts: [UInt64] = []
        let end = 600 * Self.second
        var now: UInt64 = 0
        while now < end {
            if backoff.wait(now: now) == 0 {
                attempts.append(now)
                backoff.failed(now: now, jitter: 0.5 + Double(generator.next() % 1000) / 2000)
            }
            now += Self.millisecond  // a caller retrying as fast as it can
        }
        #expect(attempts.count >= 20 && attempts.count <= 50, "\(attempts.count) connects in 10 minutes")
        for (index, pair) in zip(attempts, attempts.dropFirst()).enumerated() {
            let gap = pair.1 - pair.0
            let minimum = ReconnectBackoff.delay(afterFailures: index + 1) / 2
            #expect(gap >= minimum, "connect \(index + 2) came \(gap / Self.millisecond) ms after the one before")
            #expect(gap >= 50 * Self.millisecond)
        }
    }

    @Test func aSuccessfulConnectStartsAgainAtAHundredMilliseconds() {
        var backoff = ReconnectBackoff()
        for step in 0..<12 { backoff.failed(now: UInt64(step) * 60 * Self.second, jitter: 1) }
        #expect(backoff.wait(now: 11 * 60 * Self.second) == 30 * Self.second)
        backoff.succeeded()
        #expect(backoff.wait(now: 0) == 0)
        backoff.failed(now: 0, jitter: 1)
        #expect(backoff.wait(now: 0) == 100 * Self.millisecond)
    }

    /// The same through the real transport: each send to a port nobody listens on waits for the
    /// backoff before its connect (at least 50, 100, 200 ms after the first failure).
    @Test func theTransportWaitsOutTheBackoffBetweenConnects() async throws {
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let port = refusing.port
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(port)")
        let transport = try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint))
        let client = APNsClient(endpoint: endpoint, credentials: .certificate, transport: transport, retryPolicy: .none)
        let note = APNs.Notification(
            token: try DeviceToken(hex: String(repeating: "ab", count: 32)), topic: nil, payload: Payload.alert(body: "x"))
        _ = await client.result(for: note)  // the first connect fails at once
        let started = ContinuousClock.now
        for _ in 0..<3 {
            guard case .failure(.transport(let failure)) = await client.result(for: note) else {
                Issue.record("expected a transport failure")
                break
            }
            #expect(!failure.mayHaveReachedAPNs)
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(350), "three reconnects took only \(elapsed)")
        #expect(transport.openedConnectionCount == 0)
        await client.shutdown()
    }
}

/// A seeded generator, so the jitter sequence is the same on every run.
typealias SplitMix = SplitMix64
