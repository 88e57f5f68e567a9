import APNs
import Emulator
import HTTP2
import HeraldTestSupport
import Keys
import Synchronization
import Testing

/// Every reason the emulator can answer a device push with, each through a real HTTP/2 client on
/// loopback (requests written header by header, so malformed ones can be sent too). Broadcast and
/// channel reasons are in `BroadcastEmulatorTests`; a test below checks that the two tables together
/// cover the whole reason table.
@Suite(.timeLimit(.minutes(1)))
struct EveryReasonTests {
    static let token = String(repeating: "ab", count: 32)
    static let alert = Array(#"{"aps":{"alert":"hi"}}"#.utf8)

    /// Which provider token a request carries.
    enum Credential: Sendable {
        case valid
        case none
        case issued(secondsAgo: Int)
        case otherKey
        case productionKey
        case forged
    }

    /// How the emulator is set up and what is sent.
    struct Case: Sendable, CustomTestStringConvertible {
        let label: String
        let reason: Reason
        /// Requests sent one after another on one connection; the last answer is checked.
        var requests: [RawRequest]
        var credentials: [Credential] = [.valid]
        var rateLimit: Int?
        var unregisterFirst = false
        var fault: Fault?
        /// Strict tokens, with the request's token replaced by one registered for this app and environment.
        var strictDevice: (bundleID: String, environment: DeviceEnvironment)?
        var testDescription: String { "\(reason.rawValue): \(label)" }
    }

    static func push(
        path: String = "/3/device/\(token)", method: String = "POST", topic: String? = "com.example.app",
        pushType: String? = "alert", extra: [(String, String)] = [], body: [UInt8] = alert
    ) -> RawRequest {
        var headers: [(String, String)] = []
        if let topic { headers.append(("apns-topic", topic)) }
        if let pushType { headers.append(("apns-push-type", pushType)) }
        return RawRequest(method: method, path: path, headers: headers + extra, body: body)
    }

    static let cases: [Case] = [
        Case(label: "a 65-byte collapse id", reason: .badCollapseId,
             requests: [push(extra: [("apns-collapse-id", String(repeating: "c", count: 65))])]),
        Case(label: "a token that is not hex", reason: .badDeviceToken, requests: [push(path: "/3/device/xyz")]),
        Case(label: "an expiration that is not a number", reason: .badExpirationDate,
             requests: [push(extra: [("apns-expiration", "tomorrow")])]),
        Case(label: "an apns-id that is not a UUID", reason: .badMessageId, requests: [push(extra: [("apns-id", "nope")])]),
        Case(label: "priority 7", reason: .badPriority, requests: [push(extra: [("apns-priority", "7")])]),
        Case(label: "background at priority 10", reason: .badPriority,
             requests: [push(pushType: "background", extra: [("apns-priority", "10")],
                             body: Array(#"{"aps":{"content-available":1}}"#.utf8))]),
        Case(label: "a Live Activity at priority 1", reason: .badPriority,
             requests: [push(topic: "com.example.app.push-type.liveactivity", pushType: "liveactivity",
                             extra: [("apns-priority", "1")],
                             body: Array(#"{"aps":{"event":"update","timestamp":1,"content-state":{}}}"#.utf8))]),
        Case(label: "an alert to the voip topic", reason: .badTopic, requests: [push(topic: "com.example.app.voip")]),
        Case(label: "two apns-topic headers", reason: .duplicateHeaders,
             requests: [push(extra: [("apns-topic", "com.example.app")])]),
        Case(label: "an unknown push type", reason: .invalidPushType, requests: [push(pushType: "bogus")]),
        Case(label: "no token in the path", reason: .missingDeviceToken, requests: [push(path: "/3/device/")]),
        Case(label: "no apns-topic with token auth", reason: .missingTopic, requests: [push(topic: nil)]),
        Case(label: "an empty body", reason: .payloadEmpty, requests: [push(body: [])]),
        Case(label: "a topic outside the allowed bundle ids", reason: .topicDisallowed,
             requests: [push(topic: "com.example.other")]),
        Case(label: "a token issued over an hour ago", reason: .expiredProviderToken, requests: [push()],
             credentials: [.issued(secondsAgo: 3700)]),
        Case(label: "a token signed by another key", reason: .invalidProviderToken, requests: [push()],
             credentials: [.forged]),
        Case(label: "no authorization header", reason: .missingProviderToken, requests: [push()], credentials: [.none]),
        Case(label: "a second key's token on a bound connection", reason: .unrelatedKeyIdInToken,
             requests: [push(), push()], credentials: [.valid, .otherKey]),
        Case(label: "a production-only key in the sandbox", reason: .badEnvironmentKeyIdInToken, requests: [push()],
             credentials: [.productionKey]),
        Case(label: "a path outside /3/device", reason: .badPath, requests: [push(path: "/3/devices/\(token)")]),
        Case(label: "GET instead of POST", reason: .methodNotAllowed, requests: [push(method: "GET")]),
        Case(label: "a token unregistered through the control API", reason: .unregistered, requests: [push()],
             unregisterFirst: true),
        Case(label: "4097 bytes", reason: .payloadTooLarge,
             requests: [push(body: Array(#"{"aps":{"alert":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: 4080)
                 + Array(#""}}"#.utf8))]),
        Case(label: "a new token within 20 minutes", reason: .tooManyProviderTokenUpdates, requests: [push(), push()],
             credentials: [.issued(secondsAgo: 60), .valid]),
        Case(label: "a second push in the same second over a limit of 1", reason: .tooManyRequests,
             requests: [push(), push()], rateLimit: 1),
        Case(label: "strict tokens: a device registered for another app", reason: .deviceTokenNotForTopic,
             requests: [push()], strictDevice: ("com.example.other", .sandbox)),
        Case(label: "strict tokens: a device of the other environment", reason: .badDeviceToken,
             requests: [push()], strictDevice: ("com.example.app", .production)),
        // Reasons APNs gives for its own state, not the request's: injected as faults.
        Case(label: "an action APNs forbids (fault)", reason: .forbidden, requests: [push()],
             fault: Fault(action: .respond(status: 403, reason: .forbidden))),
        Case(label: "an expired token (fault)", reason: .expiredToken, requests: [push()],
             fault: Fault(action: .respond(status: 410, reason: .expiredToken))),
        Case(label: "an internal error (fault)", reason: .internalServerError, requests: [push()],
             fault: Fault(action: .respond(status: 500, reason: .internalServerError))),
        Case(label: "unavailable (fault)", reason: .serviceUnavailable, requests: [push()],
             fault: Fault(action: .respond(status: 503, reason: .serviceUnavailable))),
    ]

    /// Reasons answered on GOAWAY or over TLS, tested separately below.
    static let elsewhere: [Reason] = [.idleTimeout, .shutdown, .badCertificate, .badCertificateEnvironment]

    @Test(arguments: cases)
    func answersWithApplesStatusAndReason(_ testCase: Case) async throws {
        let key = try P256PrivateKey.generate()
        let otherKey = try P256PrivateKey.generate()
        let productionKey = try P256PrivateKey.generate()
        var configuration = EmulatorConfiguration(
            keys: [
                .init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey),
                .init(keyID: "ZZZ999ZZZZ", teamID: "DEF123GHIJ", publicKey: otherKey.publicKey),
                .init(keyID: "PRD111PRDD", teamID: "DEF123GHIJ", publicKey: productionKey.publicKey, environment: .production),
            ], bundleIDs: ["com.example.app"], perTokenRateLimit: testCase.rateLimit)
        configuration.sandbox = true
        configuration.strictTokens = testCase.strictDevice != nil
        let now = Int(ProviderTokenCache.systemClock())
        let loops = try EventLoopGroup(loopCount: 1, name: "reasons")
        let emulator = try await Emulator.start(configuration, loops: loops, clock: { now })
        if testCase.unregisterFirst { emulator.tokens.unregister(Self.token, at: 1_767_225_600_000) }
        if let fault = testCase.fault { emulator.faults.add(fault) }

        var requests = testCase.requests
        if let (bundleID, environment) = testCase.strictDevice {
            let registered = try emulator.devices.register(bundleID: bundleID, environment: environment)
            for index in requests.indices { requests[index].path = "/3/device/\(registered)" }
        }
        // One valid token, reused as a real client would (each ES256 signature differs, and a new
        // token on the same connection within 20 minutes is refused).
        let validToken = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ").sign(issuedAt: now)
        for index in requests.indices {
            let credential = index < testCase.credentials.count ? testCase.credentials[index] : .valid
            let signer: ProviderTokenSigner? = switch credential {
            case .none: nil
            case .valid, .issued: try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
            case .otherKey: try ProviderTokenSigner(key: otherKey, keyID: "ZZZ999ZZZZ", teamID: "DEF123GHIJ")
            case .productionKey: try ProviderTokenSigner(key: productionKey, keyID: "PRD111PRDD", teamID: "DEF123GHIJ")
            case .forged: try ProviderTokenSigner(key: try P256PrivateKey.generate(), keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
            }
            let issuedAt = if case .issued(let ago) = credential { now - ago } else { now }
            if case .valid = credential {
                requests[index].headers.append(("authorization", validToken.authorization))
            } else if let signer {
                requests[index].headers.append(("authorization", try signer.sign(issuedAt: issuedAt).authorization))
            }
        }
        let loop = try EventLoop(name: "reason-client")
        let outcome = await sendSequence(on: loop, .init(host: "127.0.0.1", port: emulator.port, tls: nil), requests)
        await loop.shutdown()
        await emulator.shutdown()
        await loops.shutdown()

        let response = try #require(try outcome.results.last?.get())
        #expect(response.status == testCase.reason.status)
        let body = try JSONValue(parsing: response.body)
        #expect(body["reason"]?.stringValue == testCase.reason.rawValue)
        #expect(response.headers.value(for: "content-type") == "application/json")
        #expect(response.headers.value(for: "apns-id")?.count == 36, "every answer carries an apns-id")
        if testCase.reason.status == 410 {
            #expect(body["timestamp"]?.intValue != nil, "410 carries the millisecond timestamp")
        }
        for earlier in outcome.results.dropLast() {
            #expect((try? earlier.get())?.status == 200, "the requests before the last one succeed")
        }
    }

    @Test func idleConnectionsGetGoAwayIdleTimeout() async throws {
        var configuration = EmulatorConfiguration(keys: [])
        configuration.idleTimeout = .milliseconds(100)
        let loops = try EventLoopGroup(loopCount: 1, name: "idle")
        let emulator = try await Emulator.start(configuration, loops: loops)
        let loop = try EventLoop(name: "idle-client")
        let outcome = await sendSequence(
            on: loop, .init(host: "127.0.0.1", port: emulator.port, tls: nil),
            [RawRequest(method: "GET", path: "/control/v1/stats")], awaitClose: true)
        #expect(outcome.goAway.map { String(decoding: $0.debugData, as: UTF8.self) } == #"{"reason":"IdleTimeout"}"#)
        await loop.shutdown()
        await emulator.shutdown()
        await loops.shutdown()
    }

    @Test func shutdownSaysShutdownInItsGoAway() async throws {
        let loops = try EventLoopGroup(loopCount: 1, name: "shutdown")
        let emulator = try await Emulator.start(EmulatorConfiguration(keys: []), loops: loops)
        let loop = try EventLoop(name: "shutdown-client")
        let outcome = await sendSequence(
            on: loop, .init(host: "127.0.0.1", port: emulator.port, tls: nil),
            [RawRequest(method: "GET", path: "/control/v1/stats")], awaitClose: true,
            whenAnswered: { Task { await emulator.shutdown() } })
        #expect(outcome.goAway.map { String(decoding: $0.debugData, as: UTF8.self) } == #"{"reason":"Shutdown"}"#)
        await loop.shutdown()
        await loops.shutdown()
    }

    /// Certificate auth over TLS: an APNs certificate for the sandbox is accepted; one without topics
    /// is BadCertificate; a production-only one is BadCertificateEnvironment in the sandbox. Token auth
    /// still works on the same port (client certificates are asked for, not required).
    @Test func certificateReasonsOverTLS() async throws {
        let authority = try CertificateAuthority.generate(commonName: "Reasons CA")
        let (serverCertificate, serverKey) = try authority.issue(commonName: "localhost", subjectAlternativeNames: ["localhost"])
        var serverTLS = TLSConfiguration.server(
            certificateChain: [serverCertificate], privateKey: serverKey, trustRoots: .certificates([authority.certificate]),
            verifyPeer: true)
        serverTLS.requireClientCertificate = false
        let loops = try EventLoopGroup(loopCount: 1, name: "cert-reasons")
        let emulator = try await Emulator.start(
            EmulatorConfiguration(keys: []), tls: try TLSContext(serverTLS), loops: loops)
        let loop = try EventLoop(name: "cert-client")

        func send(_ identity: (certificate: Certificate, privateKey: PrivateKey)?) async throws -> (Int, String?) {
            let tls = try TLSContext(.client(
                serverHostname: "localhost", trustRoots: .certificates([authority.certificate]),
                certificateChain: identity.map { [$0.certificate] } ?? [], privateKey: identity?.privateKey))
            let outcome = await sendSequence(
                on: loop, .init(host: "localhost", port: emulator.port, tls: tls),
                [RawRequest(path: "/3/device/\(Self.token)", headers: [("apns-push-type", "alert")], body: Self.alert)])
            let response = try #require(try outcome.results.last?.get())
            return (response.status, (try? JSONValue(parsing: response.body))?["reason"]?.stringValue)
        }
        let good = try authority.issue(
            commonName: "Apple Development IOS Push Services: com.example.app", isClient: true,
            extraSubjectUID: "com.example.app", extensions: [.apns(.development)])
        let noTopics = try authority.issue(commonName: "Some client", isClient: true)
        let production = try authority.issue(
            commonName: "Apple Push Services: com.example.app", isClient: true, extraSubjectUID: "com.example.app",
            extensions: [.apns(.production)])
        let accepted = try await send(good)
        #expect(accepted.0 == 200)
        let badCertificate = try await send(noTopics)
        #expect(badCertificate == (403, "BadCertificate"))
        let wrongEnvironment = try await send(production)
        #expect(wrongEnvironment == (403, "BadCertificateEnvironment"))
        let tokenless = try await send(nil)
        #expect(tokenless == (400, "MissingTopic"), "without a certificate it is token auth, which needs a topic")
        await loop.shutdown()
        await emulator.shutdown()
        await loops.shutdown()
    }

    @Test func theTablesCoverEveryDocumentedReason() {
        let covered = Set(Self.cases.map(\.reason.rawValue) + Self.elsewhere.map(\.rawValue)
            + BroadcastEmulatorTests.cases.map(\.reason))
        let missing = Reason.allDocumented.map(\.reason.rawValue).filter { !covered.contains($0) }
        #expect(missing.isEmpty, "reasons with no test through HTTP/2: \(missing)")
    }
}
