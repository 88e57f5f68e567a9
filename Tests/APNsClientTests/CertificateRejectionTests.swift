import APNs
import APNsClient
import HTTP2
import Keys
import Synchronization
import Testing

/// A server certificate the client does not trust fails the send at the first connect: resending
/// would meet the same certificate, so the retry policy does not (before, it connected three times).
@Suite(.timeLimit(.minutes(1)))
struct CertificateRejectionTests {
    static let token = String(repeating: "ab", count: 32)

    /// A TLS server whose certificate comes from a CA the client does not know (the client trusts
    /// the system's CAs), and a client allowing two retries.
    func withUntrustedServer(_ body: (HTTP2Server, APNsClient) async throws -> Void) async throws {
        let authority = try CertificateAuthority.generate(commonName: "Herald Untrusted Test CA")
        let (certificate, key) = try authority.issue(
            commonName: "localhost", subjectAlternativeNames: ["localhost", "127.0.0.1"])
        let loops = try EventLoopGroup(loopCount: 1, name: "untrusted-server")
        let server = try await HTTP2Server.start(
            configuration: HTTP2Server.Configuration(
                loops: loops, tls: try TLSContext(.server(certificateChain: [certificate], privateKey: key))),
            handler: OKHandler())
        let endpoint = try APNsEndpoint(url: "https://localhost:\(server.port)")
        let client = APNsClient(
            endpoint: endpoint, credentials: .certificate,
            transport: try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint)),
            retryPolicy: RetryPolicy(maximumAttempts: 3, baseDelay: .milliseconds(10)))
        do {
            try await body(server, client)
        } catch {
            await client.shutdown()
            await server.shutdown()
            await loops.shutdown()
            throw error
        }
        await client.shutdown()
        await server.shutdown()
        await loops.shutdown()
    }

    func notification() throws -> APNs.Notification {
        APNs.Notification(
            token: try DeviceToken(hex: Self.token), topic: try Topic("com.example.app"),
            payload: Payload.alert(body: "x"))
    }

    func expectCertificateRejection(_ error: APNsClientError) {
        guard case .transport(let failure) = error else {
            Issue.record("expected a transport failure, got \(error)")
            return
        }
        #expect(failure.kind == .certificateVerificationFailed)
        #expect(failure.isPermanent)
        #expect(!failure.mayHaveReachedAPNs)
        #expect(failure.message.contains("certificate verification failed"), "\(failure.message)")
    }

    @Test func sendConnectsOnceAndSaysTheCertificateFailed() async throws {
        try await withUntrustedServer { server, client in
            let note = try notification()
            do throws(APNsClientError) {
                _ = try await client.send(note)
                Issue.record("a server with an untrusted certificate must be refused")
            } catch {
                expectCertificateRejection(error)
            }
            #expect(server.acceptedTotal == 1, "one connect attempt, no retries into the same certificate")
            #expect(client.metrics.retried == 0)
        }
    }

    @Test func bulkSendConnectsOnceAndSaysTheCertificateFailed() async throws {
        try await withUntrustedServer { server, client in
            let note = try notification()
            var remaining = 1
            let errors = Mutex<[APNsClientError]>([])
            await client.sendEach(
                next: {
                    guard remaining > 0 else { return nil }
                    remaining -= 1
                    return note
                },
                onResult: { _, result in
                    if case .failure(let error) = result { errors.withLock { $0.append(error) } }
                })
            let seen = errors.withLock { $0 }
            #expect(seen.count == 1)
            if let error = seen.first { expectCertificateRejection(error) }
            #expect(server.acceptedTotal == 1, "one connect attempt, no retries into the same certificate")
        }
    }

    @Test func thePolicyResendsOtherTransportFailuresButNotARejectedCertificate() {
        let policy = RetryPolicy(maximumAttempts: 3)
        let refused = TransportFailure(mayHaveReachedAPNs: false, message: "connection refused")
        let untrusted = TransportFailure(
            mayHaveReachedAPNs: false, message: "TLS peer certificate verification failed: self-signed certificate",
            kind: .certificateVerificationFailed)
        #expect(policy.isRetryable(.transport(refused)))
        #expect(!policy.isRetryable(.transport(untrusted)))
        #expect(policy.delay(afterAttempt: 1, failingWith: .transport(untrusted), random: { 1 }) == nil)
        var resendingAll = policy
        resendingAll.resendPossiblyDelivered = true
        #expect(!resendingAll.isRetryable(.transport(untrusted)), "resending the possibly delivered changes nothing")
    }
}
