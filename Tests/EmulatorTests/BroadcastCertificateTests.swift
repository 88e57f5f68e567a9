import APNs
import APNsClient
import Emulator
import Foundation
import HTTP2
import Keys
import Testing

/// Certificate auth for channels and broadcasts: the client certificate's topic is the credential,
/// no provider token is needed, and another app's channels are a TopicMismatch.
@Suite(.timeLimit(.minutes(1)))
struct BroadcastCertificateTests {
    @Test func theCertificatesAppNeedsNoProviderToken() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-bcast-cert-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let authority = try CertificateAuthority.generate(commonName: "Test CA")
        let (serverCertificate, serverKey) = try authority.issue(
            commonName: "localhost", subjectAlternativeNames: ["localhost"])
        let (clientCertificate, clientKey) = try authority.issue(
            commonName: "Apple Push Services: com.example.app", isClient: true, extraSubjectUID: "com.example.app")
        let ca = directory + "/ca.pem"
        let certificatePath = directory + "/push.pem"
        let keyPath = directory + "/push.key"
        try Data(try authority.certificate.pem().utf8).write(to: URL(fileURLWithPath: ca))
        try Data(try clientCertificate.pem().utf8).write(to: URL(fileURLWithPath: certificatePath))
        try Data(try clientKey.pkcs8PEM().utf8).write(to: URL(fileURLWithPath: keyPath))

        let loops = try EventLoopGroup(loopCount: 1, name: "broadcast-cert")
        let emulator = try await Emulator.start(
            EmulatorConfiguration(keys: []),
            tls: try TLSContext(
                .server(
                    certificateChain: [serverCertificate], privateKey: serverKey,
                    trustRoots: .certificates([authority.certificate]), verifyPeer: true)),
            loops: loops)
        let endpoint = try APNsEndpoint(url: "https://localhost:\(emulator.port)")
        let transport = try HTTP2Transport(
            configuration: TransportConfiguration(
                endpoint: endpoint, caFile: ca,
                clientIdentity: .pem(certificatePath: certificatePath, keyPath: keyPath, password: nil)))
        let client = APNsClient(endpoint: endpoint, credentials: .certificate, transport: transport)
        do {
            let created = try await client.createChannel(bundleID: "com.example.app", storagePolicy: .mostRecentMessage)
            let update = EncodedPayload(bytes: Array(#"{"aps":{"event":"end","timestamp":1767225600}}"#.utf8))
            _ = try await client.broadcast(
                Broadcast(bundleID: "com.example.app", channelID: created.channelID, payload: update))
            #expect(emulator.log.entries(channel: created.channelID.value).map(\.status) == [200])
            do throws(APNsClientError) {
                _ = try await client.listChannels(bundleID: "com.other.app")
                Issue.record("another app's channels were listed")
            } catch {
                #expect(error.reason == .topicMismatch)
            }
        } catch {
            Issue.record("\(error)")
        }
        await client.shutdown()
        await emulator.shutdown()
        await loops.shutdown()
    }
}
