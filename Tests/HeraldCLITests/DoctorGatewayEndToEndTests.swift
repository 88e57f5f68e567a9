import Foundation
import Testing

/// `herald doctor --notification ID`: a gateway notification looked up through the gateway's API, its
/// failed delivery's request read from the emulator's log. `herald gateway`, `herald emulator` and
/// `herald doctor` are child processes on loopback.
@Suite("herald doctor on a gateway notification", .timeLimit(.minutes(2)))
struct DoctorGatewayEndToEndTests {
    static let token = String(repeating: "d7", count: 32)

    @Test("a notification to an uninstalled app: the gateway's delivery failed with 410, the cause first")
    func gatewayNotificationToAnUnregisteredToken() async throws {
        let scratch = try GatewayScratch()
        let emulator = try EmulatorProcess(scratch.appFlags, tlsIn: scratch.path)
        defer { _ = emulator.stop() }
        let ca = scratch.path + "/herald-data/ca.pem"
        let gateway = try GatewayProcess(
            ["--data-dir", scratch.dataDirectory, "--endpoint", emulator.tlsEndpoint, "--ca-file", ca]
                + scratch.appFlags)
        defer { _ = gateway.stop() }
        let api = try GatewayAPI(gateway: gateway, dataDirectory: scratch.dataDirectory)

        let put = try api.call("PUT", "/v1/apps/com.example.app/devices/\(Self.token)", body: #"{"user":"ana"}"#)
        try #require(put.status == 200, "\(put)")
        // The app is removed from the device: APNs answers 410 from now on.
        let removed = try Curl.run([
            "-X", "POST", "--cacert", ca, "--resolve", "localhost:\(emulator.port):127.0.0.1",
            emulator.tlsEndpoint + "/control/v1/devices/\(Self.token)/unregister",
        ])
        try #require((200..<300).contains(removed.status), "\(removed)")
        let id = try api.notify(#"{"to":{"users":["ana"]},"payload":{"aps":{"alert":"Your order shipped"}}}"#)
        _ = try await api.waitUntilDone(id, deadline: .seconds(60))

        let result = try HeraldBinary.run([
            "doctor", "--gateway", gateway.url, "--api-key", api.adminKey, "--notification", id, "--emulator",
            emulator.tlsEndpoint, "--ca-file", ca,
        ])
        print(result.stdout)
        #expect(result.status == 1, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.first?.hasPrefix("1. cause [answer] Unregistered: APNs refused it: 410 Unregistered.") == true,
            "\(result)")
        #expect(
            lines.contains {
                $0.contains(
                    "GATEWAY-NOTIFICATION: gateway notification for com.example.app: done, 1 delivery, 1 failed")
            }, "\(result.stdout)")
        #expect(
            lines.contains { $0.contains("GATEWAY-DEVICE: the gateway holds the token as unregistered") },
            "\(result.stdout)")
        #expect(
            lines.contains {
                $0.contains(
                    "GATEWAY-DEVICE-HISTORY: the device's latest 1 delivery: 0 succeeded; 1 failed (Unregistered)")
            }, "\(result.stdout)")
    }
}
