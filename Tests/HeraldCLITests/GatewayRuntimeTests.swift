import APNsClient
import Foundation
import Gateway
import Keys
import Testing

/// `GatewayRuntime`, the library type `herald gateway` runs: clients first, then the store and the
/// first admin key, then the server; a failure on the way leaves nothing written or bound.
@Suite(.timeLimit(.minutes(1)))
struct GatewayRuntimeTests {
    @Test func startsServesAndStopsAndMakesTheAdminKeyOnce() async throws {
        let scratch = try GatewayScratch()
        let settings = APNsClientSettings(
            credentials: .token(authKeyPath: scratch.keyPath, keyID: "ABC123DEFG", teamID: "DEF123GHIJ"),
            endpoint: try APNsEndpoint(url: "http://127.0.0.1:9"))
        let app = GatewayAppSettings(
            bundleID: "com.example.app", environments: [.sandbox: settings, .production: settings])
        let options = GatewayRuntime.Options(
            dataDirectory: GatewayDataDirectory(path: scratch.dataDirectory), apps: [app])

        let first = try await GatewayRuntime.start(options)
        #expect(first.port > 0)
        #expect(first.firstAdminKey?.scope == .admin)
        #expect(
            Set(first.connections.keys.map(\.description)) == [
                "com.example.app (sandbox)", "com.example.app (production)",
            ])
        #expect(try await first.store.apiKeys().count == 1)
        let health = try Curl.run(["http://127.0.0.1:\(first.port)/healthz"])
        #expect(health.status == 200)
        await first.shutdown()
        let closed = try Curl.run(["http://127.0.0.1:\(first.port)/healthz"])
        #expect(closed.exit != 0, "the port is closed after shutdown: \(closed)")

        let second = try await GatewayRuntime.start(options)
        #expect(second.firstAdminKey == nil)
        await second.shutdown()
    }

    @Test func aKeyFileThatCannotBeReadStopsTheStartBeforeTheStoreIsMade() async throws {
        let scratch = try GatewayScratch()
        let settings = APNsClientSettings(
            credentials: .token(authKeyPath: scratch.path + "/missing.p8", keyID: "ABC123DEFG", teamID: "DEF123GHIJ"),
            endpoint: .sandbox)
        let options = GatewayRuntime.Options(
            dataDirectory: GatewayDataDirectory(path: scratch.dataDirectory),
            apps: [GatewayAppSettings(bundleID: "com.example.app", environments: [.sandbox: settings])])
        await #expect {
            _ = try await GatewayRuntime.start(options)
        } throws: { error in
            guard case GatewayStartError.client(let key, _) = error else { return false }
            return key.description == "com.example.app (sandbox)"
                && "\(error)".contains("--auth-key: cannot read '\(scratch.path)/missing.p8'")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.dataDirectory))
    }
}
