import APNs
import APNsClient
import Emulator
import Gateway
import HTTP2
import Keys

/// A gateway whose APNs clients reach in-process emulators on loopback: one emulator stands for
/// APNs's sandbox, another for production, so a test can tell which environment a request went to.
struct GatewayChannelFixture {
    static let keyID = "ABC123DEFG"
    static let teamID = "DEF123GHIJ"

    let gateway: GatewayAPIFixture
    let sandbox: Emulator
    let production: Emulator

    /// Where a client of the fixture's app points.
    enum Target {
        case sandboxEmulator, productionEmulator
        /// An emulator that serves only another app: APNs refuses (TopicMismatch).
        case refusingEmulator
        /// A closed loopback port: no answer.
        case closedPort
    }

    /// `targets`: the clients to make, by app and environment (the default: the app's two
    /// environments on their emulators, the sandbox-only app on the sandbox one).
    static func with(
        _ kind: StoreKind, targets: [APNsConnections.Key: Target]? = nil,
        _ body: (GatewayChannelFixture) async throws -> Void
    ) async throws {
        let key = try P256PrivateKey.generate()
        let loops = try EventLoopGroup(loopCount: 1, name: "gateway-apns")
        let provider = EmulatorConfiguration.ProviderKey(keyID: keyID, teamID: teamID, publicKey: key.publicKey)
        let sandbox = try await Emulator.start(EmulatorConfiguration(keys: [provider]), loops: loops)
        let production = try await Emulator.start(EmulatorConfiguration(keys: [provider], sandbox: false), loops: loops)
        let refusing = try await Emulator.start(
            EmulatorConfiguration(keys: [provider], bundleIDs: ["com.example.elsewhere"]), loops: loops)
        let targets =
            targets ?? [
                .init(bundleID: GatewayAPIFixture.app, environment: .sandbox): .sandboxEmulator,
                .init(bundleID: GatewayAPIFixture.app, environment: .production): .productionEmulator,
                .init(bundleID: GatewayAPIFixture.sandboxApp, environment: .sandbox): .sandboxEmulator,
            ]
        var clients: [APNsConnections.Key: APNsClient] = [:]
        for (connection, target) in targets {
            let port =
                switch target {
                case .sandboxEmulator: sandbox.port
                case .productionEmulator: production.port
                case .refusingEmulator: refusing.port
                case .closedPort: 1
                }
            clients[connection] = try client(port: port, key: key)
        }
        let apns = APNsConnections(clients)
        var failure: (any Error)?
        do {
            try await GatewayAPIFixture.with(kind, apns: apns) { gateway in
                try await body(GatewayChannelFixture(gateway: gateway, sandbox: sandbox, production: production))
            }
        } catch {
            failure = error
        }
        await apns.shutdown()
        for emulator in [sandbox, production, refusing] { await emulator.shutdown() }
        await loops.shutdown()
        if let failure { throw failure }
    }

    /// A client with a provider token the emulators accept; one attempt, so a failure is quick.
    static func client(port: Int, key: P256PrivateKey) throws -> APNsClient {
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(port)")
        let signer = try ProviderTokenSigner(key: key, keyID: keyID, teamID: teamID)
        return APNsClient(
            endpoint: endpoint, credentials: .token(try ProviderTokenCache(signer: signer)),
            transport: try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint)),
            retryPolicy: RetryPolicy(maximumAttempts: 1), requestTimeout: .seconds(10))
    }
}

extension String {
    /// Percent-encodes what a path segment cannot hold as is ('/', '+', '=' of base64).
    var pathSegmentEncoded: String {
        var encoded = ""
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                encoded.unicodeScalars.append(UnicodeScalar(byte))
            default:
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return encoded
    }

    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
