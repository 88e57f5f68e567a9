import APNs
import APNsClient
import Emulator
import Foundation
import HTTP2
import Keys
import Testing

/// `APNsClient(endpoint:authKeyPath:keyID:teamID:connections:)`: the common case in one step.
@Suite(.timeLimit(.minutes(1)))
struct TokenAuthInitTests {
    /// A fresh key written as a .p8 file; removed by the caller.
    static func keyFile() throws -> (P256PrivateKey, String) {
        let key = try P256PrivateKey.generate()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKey-\(UUID()).p8").path
        try key.pkcs8PEM().write(toFile: path, atomically: true, encoding: .utf8)
        return (key, path)
    }

    @Test func sendsWithTheKeyFileToAnEmulator() async throws {
        let (key, path) = try Self.keyFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let loops = try EventLoopGroup(loopCount: 1, name: "token-init-test")
        let emulator = try await Emulator.start(
            EmulatorConfiguration(
                keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)],
                bundleIDs: ["com.example.app"]),
            loops: loops)
        let client = try APNsClient(
            endpoint: APNsEndpoint(host: "127.0.0.1", port: emulator.port, usesTLS: false), authKeyPath: path,
            keyID: "ABC123DEFG", teamID: "DEF123GHIJ", connections: 2)
        let notification = APNsNotification(
            token: try DeviceToken(hex: String(repeating: "cd", count: 32)), topic: try Topic("com.example.app"),
            payload: Payload.alert(body: "Hi"))
        let result = await client.result(for: notification)
        await client.shutdown()
        let logged = emulator.log.entries(token: notification.token.hex)
        await emulator.shutdown()
        await loops.shutdown()
        let response = try result.get()
        #expect(logged.map(\.apnsID) == [response.apnsID], "the emulator verified the token and logged the push")
    }

    @Test func aMissingKeyFileIsAProviderTokenErrorNamingIt() throws {
        #expect {
            _ = try APNsClient(
                endpoint: .sandbox, authKeyPath: "/nonexistent/AuthKey.p8", keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        } throws: { error in
            guard let error = error as? APNsClientError, case .providerToken = error else { return false }
            return error.description.contains("/nonexistent/AuthKey.p8")
        }
    }

    @Test func fewerThanOneConnectionIsRefused() throws {
        let (_, path) = try Self.keyFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: APNsClientError.invalidConfiguration("connections: must be at least 1, not 0")) {
            _ = try APNsClient(
                endpoint: .sandbox, authKeyPath: path, keyID: "ABC123DEFG", teamID: "DEF123GHIJ", connections: 0)
        }
    }
}
