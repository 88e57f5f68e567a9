import APNs
import Emulator
import HTTP2
import HeraldTestSupport
import Keys
import Synchronization
import Testing

/// The emulator's quick path (accepted device pushes answered from header bytes) answers and logs
/// as the general path does, including when the two take turns on one connection.
@Suite(.timeLimit(.minutes(1)))
struct QuickPathTests {
    static let token = String(repeating: "ab", count: 32)
    static let start = TestClock().now
    let key: P256PrivateKey

    init() throws {
        key = try P256PrivateKey.generate()
    }

    /// Sends `requests` on one connection to an emulator whose clock reads `clock`; `beforeEach`
    /// may change the clock or declare faults between requests.
    func exchange(
        _ requests: [RawRequest], clock: TestClock = TestClock(),
        configure: (inout EmulatorConfiguration) -> Void = { _ in },
        beforeEach: (@Sendable (Int, Emulator) -> Void)? = nil
    ) async throws -> (results: [HTTP2Response], log: [Delivery]) {
        var configuration = EmulatorConfiguration(
            keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)])
        configure(&configuration)
        let loops = try EventLoopGroup(loopCount: 1, name: "quick-path")
        let emulator = try await Emulator.start(configuration, loops: loops, clock: { clock.now })
        let loop = try EventLoop(name: "quick-client")
        let outcome = await sendSequence(
            on: loop, .init(host: "127.0.0.1", port: emulator.port, tls: nil), requests,
            beforeEach: { index in beforeEach?(index, emulator) })
        await loop.shutdown()
        let log = emulator.log.entries()
        await emulator.shutdown()
        await loops.shutdown()
        return (try outcome.results.map { try $0.get() }, log)
    }

    func push(_ authorization: String, path: String = "/3/device/" + QuickPathTests.token, id: String? = nil)
        -> RawRequest
    {
        var headers = [
            ("authorization", authorization), ("apns-topic", "com.example.app"), ("apns-push-type", "alert"),
        ]
        if let id { headers.append(("apns-id", id)) }
        return RawRequest(path: path, headers: headers, body: Array(#"{"aps":{"alert":"hi"}}"#.utf8))
    }

    func reason(_ response: HTTP2Response) -> String? {
        (try? JSONValue(parsing: response.body))?["reason"]?.stringValue
    }

    @Test func acceptedPushesEchoLowercaseIDsAndAreLogged() async throws {
        let signer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let bearer = try signer.sign(issuedAt: Self.start).authorization
        let (results, log) = try await exchange([
            push(bearer, path: "/3/device/" + Self.token.uppercased(), id: "123E4567-E89B-12D3-A456-4266554400A0"),
            push(bearer), push(bearer),
        ])
        #expect(results.map { $0.status } == [200, 200, 200])
        #expect(results[0].headers.value(for: "apns-id") == "123e4567-e89b-12d3-a456-4266554400a0")
        let generated =
            results.compactMap { $0.headers.value(for: "apns-id") }
            + results.compactMap { $0.headers.value(for: "apns-unique-id") }
        #expect(Set(generated).count == 6, "every id differs: \(generated)")
        for id in generated.dropFirst() {
            let bytes = Array(id.utf8)
            #expect((try? APNsID(id))?.value == id, "lowercase UUID: \(id)")
            #expect(bytes[14] == UInt8(ascii: "4") && "89ab".utf8.contains(bytes[19]), "version 4: \(id)")
        }
        #expect(log.map { $0.token } == Array(repeating: Self.token, count: 3))
        #expect(log.first?.apnsID == "123e4567-e89b-12d3-a456-4266554400a0")
        #expect(log.map { $0.uniqueID } == results.map { $0.headers.value(for: "apns-unique-id") })
        #expect(
            log.allSatisfy {
                $0.topic == "com.example.app" && $0.pushType == "alert" && $0.priority == 10 && $0.status == 200
            })
        #expect(log.allSatisfy { $0.payload == Array(#"{"aps":{"alert":"hi"}}"#.utf8) })
    }

    @Test func productionAnswersCarryNoUniqueID() async throws {
        let bearer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ").sign(
            issuedAt: Self.start)
        let (results, log) = try await exchange([push(bearer.authorization)]) { $0.sandbox = false }
        #expect(results.first?.status == 200)
        #expect(results.first?.headers.value(for: "apns-unique-id") == nil)
        #expect(log.first?.uniqueID == nil)
    }

    /// The quick path remembers the authorization it accepted last; when the general path accepts
    /// another token in between (here under an injected delay), the old header is a stale token again.
    @Test func aTokenAcceptedByTheGeneralPathReplacesTheQuickPathsOwn() async throws {
        let signer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let first = try signer.sign(issuedAt: Self.start).authorization
        let second = try signer.sign(issuedAt: Self.start + 1300).authorization
        let clock = TestClock()
        let (results, _) = try await exchange(
            [push(first), push(second), push(first)], clock: clock,
            beforeEach: { index, emulator in
                if index == 1 {
                    clock.advance(1300)
                    emulator.faults.add(Fault(action: .delay))
                }
            })
        #expect(results.map { $0.status } == [200, 200, 429])
        #expect(reason(results[2]) == "TooManyProviderTokenUpdates")
    }

    @Test func anExpiredTokenIsRefusedEvenWhenItsBytesAreKnown() async throws {
        let bearer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ").sign(
            issuedAt: Self.start)
        let clock = TestClock()
        let (results, log) = try await exchange(
            [push(bearer.authorization), push(bearer.authorization)], clock: clock,
            beforeEach: { index, _ in if index == 1 { clock.advance(3601) } })
        #expect(results.map { $0.status } == [200, 403])
        #expect(reason(results[1]) == "ExpiredProviderToken")
        #expect(log.map { $0.reason } == [nil, "ExpiredProviderToken"])
    }

    @Test func rejectionsAfterAnAcceptedTokenAnswerAsTheGeneralPath() async throws {
        let bearer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ").sign(
            issuedAt: Self.start)
        var badPayload = push(bearer.authorization)
        badPayload.body = Array("[1]".utf8)
        var background = push(bearer.authorization)
        background.headers[2].1 = "background"
        let (results, _) = try await exchange(
            [push(bearer.authorization), badPayload, background, push(bearer.authorization, path: "/3/device/abc")])
        #expect(results.map { $0.status } == [200, 400, 400, 400])
        #expect(results.dropFirst().map(reason) == ["PayloadEmpty", "BadPriority", "BadDeviceToken"])
    }

    @Test func aListeningDeviceGetsThePushWithTheIDItWasAnsweredWith() async throws {
        try await withDeviceEmulator { harness in
            let device = try await harness.register()
            var stream = device.notifications().makeAsyncIterator()
            await harness.emulator.devices.waitForPresence(device.token, online: true)
            let bearer = try ProviderTokenSigner(key: harness.key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
                .sign(issuedAt: Int(ProviderTokenCache.systemClock()))
            let loop = try EventLoop(name: "quick-device")
            let result = await sendOne(
                on: loop, .init(host: "127.0.0.1", port: harness.emulator.port, tls: nil),
                path: "/3/device/" + device.token,
                headers: [("authorization", bearer.authorization), ("apns-topic", "com.example.app")])
            await loop.shutdown()
            let response = try result.get()
            #expect(response.status == 200)
            let note = try #require(try await stream.next())
            #expect(note.apnsID == response.headers.value(for: "apns-id"), "no apns-id sent: the generated one")
            #expect(note.token == device.token && note.topic == "com.example.app")
            device.close()
        }
    }
}
