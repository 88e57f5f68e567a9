import APNs
import APNsClient
import HTTP2
import Testing

/// The request timeout bounds the whole attempt, connect and TLS handshake included, against a
/// server that accepts TCP and never answers; such a request was never sent, and says so.
@Suite(.timeLimit(.minutes(1)))
struct ConnectTimeoutTests {
    @Test func aSilentServerFailsWithinTheRequestTimeoutAsNotDelivered() async throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)  // accepts (backlog), never speaks
        defer { listener.close() }
        let endpoint = try APNsEndpoint(url: "https://127.0.0.1:\(try listener.localAddress.port)")
        // The connect timeout (10 s) is the transport's default: the request's own 1 s is what counts.
        let client = APNsClient(
            endpoint: endpoint, credentials: .certificate,
            transport: try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint)),
            retryPolicy: .none, requestTimeout: .seconds(1))
        let note = APNs.Notification(
            token: try DeviceToken(hex: String(repeating: "ab", count: 32)), topic: try Topic("com.example.app"),
            payload: Payload.alert(body: "x"))
        let started = ContinuousClock.now
        let result = await client.result(for: note)
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(900) && waited < .milliseconds(2500), "failed after \(waited)")
        guard case .failure(.transport(let failure)) = result else {
            Issue.record("expected a transport failure, got \(result)")
            return
        }
        #expect(!failure.mayHaveReachedAPNs)
        #expect(failure.message.contains("timed out after 1.0 s"), "\(failure.message)")
        #expect(failure.message.contains("TLS handshake"), "\(failure.message)")
        #expect(failure.message.contains("not delivered"), "\(failure.message)")
        // The connect still under way is closed, not waited for until its own timeout.
        let closing = ContinuousClock.now
        await client.shutdown()
        #expect(ContinuousClock.now - closing < .seconds(2))
    }
}
