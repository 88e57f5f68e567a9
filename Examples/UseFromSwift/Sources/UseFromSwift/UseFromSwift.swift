// Sends a notification through APNsClient to an APNs emulator started in this process and prints
// the answer; exits 1 when it is not a success.
import APNs
import APNsClient
import Emulator
import Foundation
import HTTP2
import Keys

@main
struct UseFromSwift {
    static func main() async {
        do {
            try await run()
        } catch {
            print("failed: \(error)")
            exit(1)
        }
    }

    static func run() async throws {
        // Apple's developer account gives you AuthKey_<key id>.p8; here a new key stands in for it.
        let key = try P256PrivateKey.generate()
        let keyPath = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKey-\(UUID()).p8").path
        try key.pkcs8PEM().write(toFile: keyPath, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: keyPath) }

        // An emulator that trusts that key, on a free loopback port, over h2c (HTTP/2 without TLS).
        let loops = try EventLoopGroup(loopCount: 1, name: "emulator")
        let emulator = try await Emulator.start(
            EmulatorConfiguration(
                keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)],
                bundleIDs: ["com.example.shop"]),
            loops: loops)

        // Against Apple: `endpoint: .sandbox` (or `.production`) and your own key file and ids.
        let client = try APNsClient(
            endpoint: APNsEndpoint(host: "127.0.0.1", port: emulator.port, usesTLS: false),
            authKeyPath: keyPath, keyID: "ABC123DEFG", teamID: "DEF123GHIJ", connections: 1)
        let notification = APNsNotification(
            token: try DeviceToken(hex: String(repeating: "ab", count: 32)), topic: try Topic("com.example.shop"),
            payload: Payload.alert(title: "Order shipped", body: "Arriving Tuesday").badge(1))

        let result = await client.result(for: notification)
        await client.shutdown()
        let logged = emulator.log.entries(token: notification.token.hex)
        await emulator.shutdown()
        await loops.shutdown()

        let response = try result.get()
        print("200 apns-id \(response.apnsID); the emulator logged \(logged.count) delivery")
        guard logged.count == 1 else { throw ExampleError.notLogged }
    }

    enum ExampleError: Error { case notLogged }
}
