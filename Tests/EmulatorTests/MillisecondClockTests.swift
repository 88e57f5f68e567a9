import APNs
import APNsClient
import Emulator
import HTTP2
import Keys
import Synchronization
import Testing

/// Millisecond fields (the delivery log's receive time, the 410 timestamp) come from a millisecond
/// clock, not whole seconds times 1000, so `since`/`until` tell apart pushes of the same second.
@Suite(.timeLimit(.minutes(1)))
struct MillisecondClockTests {
    /// Sends `count` pushes to `token` through an emulator started by `start`, then calls `check`.
    func withPushes(
        _ count: Int, token: String = String(repeating: "ab", count: 32),
        providerTokenClock: @escaping @Sendable () -> Int = ProviderTokenCache.systemClock,
        start: (EmulatorConfiguration, EventLoopGroup) async throws -> Emulator,
        check: (Emulator, APNsClient, APNs.Notification) async throws -> Void
    ) async throws {
        let key = try P256PrivateKey.generate()
        let loops = try EventLoopGroup(loopCount: 1, name: "milliseconds")
        let emulator = try await start(
            EmulatorConfiguration(keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)]),
            loops)
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(emulator.port)")
        let signer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let client = APNsClient(
            endpoint: endpoint, credentials: .token(try ProviderTokenCache(signer: signer, clock: providerTokenClock)),
            transport: try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint)), retryPolicy: .none
        )
        let note = APNs.Notification(
            token: try DeviceToken(hex: token), topic: try Topic("com.example.app"), payload: Payload.alert(body: "x"))
        for _ in 0..<count { _ = try await client.send(note) }
        try await check(emulator, client, note)
        await client.shutdown()
        await emulator.shutdown()
        await loops.shutdown()
    }

    @Test func theSystemClockGivesMillisecondsNotWholeSeconds() async throws {
        try await withPushes(4) { configuration, loops in
            try await Emulator.start(configuration, loops: loops)
        } check: { emulator, _, _ in
            let times = emulator.log.entries().map(\.receivedAt)
            let now = Emulator.systemMillisecondClock()
            #expect(times.count == 4)
            #expect(times.allSatisfy { abs(now - $0) < 60_000 }, "\(times) near \(now)")
            // Four whole seconds in a row would be one chance in 10^12.
            #expect(times.contains { $0 % 1000 != 0 }, "\(times)")
        }
    }

    @Test func sinceAndUntilResolveWithinASecondAndThe410TimestampHasMilliseconds() async throws {
        let base = 1_767_225_600_000
        let ticks = Mutex(0)
        let clock: @Sendable () -> Int = {
            ticks.withLock { tick in
                defer { tick += 1 }
                return base + tick * 300
            }
        }
        try await withPushes(4, providerTokenClock: { base / 1000 }) { configuration, loops in
            try await Emulator.start(configuration, loops: loops, clock: { base / 1000 }, millisecondClock: clock)
        } check: { emulator, client, note in
            let times = emulator.log.entries().map(\.receivedAt)
            #expect(
                times.count == 4 && Set(times).count == 4 && times.allSatisfy { $0 / 1000 == base / 1000 }, "\(times)")
            let later = emulator.log.entries(matching: DeliveryFilter(since: times[2]))
            #expect(later.map(\.receivedAt) == Array(times[2...]))
            let earlier = emulator.log.entries(matching: DeliveryFilter(until: times[1]))
            #expect(earlier.map(\.receivedAt) == Array(times[...1]))

            let answer = try await ControlClient.request(
                method: "POST", port: emulator.port, path: "/control/v1/devices/\(note.token.hex)/unregister")
            #expect(answer.status == 204)
            do {
                _ = try await client.send(note)
                Issue.record("an unregistered token must be refused")
            } catch {
                guard case .rejected(let rejection) = error as? APNsClientError,
                    let timestamp = rejection.timestampMilliseconds
                else {
                    Issue.record("expected a 410 with a timestamp, got \(error)")
                    return
                }
                #expect(timestamp > times[3] && timestamp % 1000 != 0, "\(timestamp)")
            }
        }
    }
}
