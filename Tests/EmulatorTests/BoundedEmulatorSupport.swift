import APNs
import Emulator
import HTTP2
import HeraldTestSupport
import Keys

/// An emulator started with a configuration a test changes, and one-request-per-connection calls
/// to it (h2c on loopback).
struct BoundedEmulator {
    let emulator: Emulator
    let key: P256PrivateKey
    let loop: EventLoop

    /// One request on a connection of its own.
    func send(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) async throws -> HTTP2Response {
        try await sendOne(
            on: loop, .init(host: "127.0.0.1", port: emulator.port, tls: nil), path: path, method: method, body: body,
            headers: headers
        ).get()
    }

    /// A device push with a fresh provider token.
    func push(
        _ body: [UInt8], to token: String = String(repeating: "ab", count: 32), pushType: String = "alert",
        topic: String = "com.example.app"
    ) async throws -> HTTP2Response {
        let bearer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
            .sign(issuedAt: Int(ProviderTokenCache.systemClock()))
        let topic = pushType == "voip" ? topic + ".voip" : topic
        return try await send(
            "POST", "/3/device/" + token,
            headers: [("authorization", bearer.authorization), ("apns-topic", topic), ("apns-push-type", pushType)],
            body: body)
    }

    /// A JSON payload of exactly `size` bytes.
    static func payload(size: Int) -> [UInt8] {
        let frame = Array(#"{"aps":{"alert":""}}"#.utf8)
        var bytes = Array(frame.prefix(17))
        bytes += [UInt8](repeating: UInt8(ascii: "x"), count: max(0, size - frame.count))
        bytes += frame.suffix(3)
        return bytes
    }
}

/// Runs `body` against an emulator configured by `configure`; everything is shut down afterwards.
func withBoundedEmulator(
    store: (any EmulatorStore)? = nil, _ configure: (inout EmulatorConfiguration) -> Void = { _ in },
    _ body: (BoundedEmulator) async throws -> Void
) async throws {
    let loops = try EventLoopGroup(loopCount: 1, name: "bounded-emulator")
    let key = try P256PrivateKey.generate()
    var configuration = EmulatorConfiguration(
        keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)])
    configure(&configuration)
    let emulator: Emulator
    do {
        if let store {
            emulator = try await Emulator.start(configuration, store: store, loops: loops)
        } else {
            emulator = try await Emulator.start(configuration, loops: loops)
        }
    } catch {
        await loops.shutdown()
        throw error
    }
    let clientLoop = try EventLoop(name: "bounded-client")
    var failure: (any Error)?
    do {
        try await body(BoundedEmulator(emulator: emulator, key: key, loop: clientLoop))
    } catch {
        failure = error
    }
    await clientLoop.shutdown()
    await emulator.shutdown()
    await loops.shutdown()
    if let failure { throw failure }
}

extension BoundedEmulator {
    /// Opens a connection that sends the preface and its SETTINGS, then nothing; returns once the
    /// server has closed it, with the seconds it stayed open after it was ready (nil: it never was).
    func holdIdleConnection() async -> Double? {
        let configuration = HTTP2ClientConnection.Configuration(host: "127.0.0.1", port: emulator.port, tls: nil)
        return await withCheckedContinuation { (continuation: CheckedContinuation<Double?, Never>) in
            loop.execute {
                let once = OnceBox(continuation)
                var readyAt: ContinuousClock.Instant?
                _ = HTTP2ClientConnection.open(on: loop, configuration: configuration) { _, event in
                    switch event {
                    case .ready: readyAt = .now
                    case .closed:
                        once.resume(
                            readyAt.map { start in
                                let elapsed = ContinuousClock.now - start
                                return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds)
                                    / 1e18
                            })
                    default: break
                    }
                }
            }
        }
    }
}
