import APNs
import Emulator
import HTTP2
import HeraldTestSupport
import Keys
import Testing

/// Requests no client should send: every one gets an APNs answer (a status and reason), or a stream
/// reset where HTTP/2 itself refuses it (a malformed content-length); none crashes the emulator, and
/// a well-behaved request on the same connection is still served afterwards.
@Suite(.timeLimit(.minutes(1)))
struct MalformedInputTests {
    static let token = String(repeating: "ab", count: 32)

    /// Seeded mutations of a valid push: header names and values, path, method and body bytes.
    static func mutations(count: Int, seed: UInt64) -> [RawRequest] {
        var random = SplitMix64(seed: seed)
        func next() -> UInt64 { random.next() }
        func pick<T>(_ values: [T]) -> T { values[Int(next() % UInt64(values.count))] }
        func junk(_ length: Int) -> String {
            String(decoding: (0..<length).map { _ in UInt8(32 + next() % 95) }, as: UTF8.self)
        }
        let names = ["apns-topic", "apns-push-type", "apns-priority", "apns-expiration", "apns-id", "apns-collapse-id",
                     "authorization", "content-length", "x-" + junk(4).lowercased().filter(\.isLetter)]
        let bodies: [[UInt8]] = [
            [], Array("{".utf8), Array("null".utf8), Array(#"{"aps":"#.utf8), Array(#"{"aps":{"alert":"\u"}}"#.utf8),
            Array(repeating: UInt8(ascii: "["), count: 600) + Array(repeating: UInt8(ascii: "]"), count: 600),
            (0..<64).map { _ in UInt8(next() & 0xff) }, Array(repeating: UInt8(ascii: "a"), count: 6000),
            Array(#"{"aps":{"alert":"hi"}}"#.utf8),
        ]
        return (0..<count).map { _ in
            var headers: [(String, String)] = [("apns-topic", "com.example.app"), ("apns-push-type", "alert")]
            for _ in 0..<(next() % 4) { headers.append((pick(names), pick(["", junk(Int(next() % 80)), "10", "0", "-1"]))) }
            let path = pick([
                "/3/device/\(token)", "/3/device/", "/3/device/\(junk(10).filter(\.isLetter))", "/3/device/\(token)/x",
                "/4/broadcasts/apps/\(junk(5).filter(\.isLetter))", "/1/apps//channels", "/control/v1/\(junk(3).filter(\.isLetter))",
                "/device/v1/devices/zz", "/",
            ])
            return RawRequest(method: pick(["POST", "POST", "GET", "PUT", "DELETE"]), path: path, headers: headers, body: pick(bodies))
        }
    }

    static func isMalformedForHTTP2(_ request: RawRequest) -> Bool {
        request.headers.contains { name, value in
            name == "content-length" || value.first == " " || value.last == " "
        }
    }

    @Test(arguments: [1, 2, 3, 4])
    func everyMalformedRequestGetsAnAnswerAndTheConnectionLives(seed: UInt64) async throws {
        let key = try P256PrivateKey.generate()
        let loops = try EventLoopGroup(loopCount: 1, name: "malformed")
        let emulator = try await Emulator.start(
            EmulatorConfiguration(keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)]),
            loops: loops)
        let authorization = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
            .sign(issuedAt: Int(ProviderTokenCache.systemClock())).authorization
        var requests = Self.mutations(count: 150, seed: seed)
        for index in requests.indices where index.isMultiple(of: 2) {
            requests[index].headers.append(("authorization", authorization))
        }
        let valid = RawRequest(
            path: "/3/device/\(Self.token)",
            headers: [("apns-topic", "com.example.app"), ("apns-push-type", "alert"), ("authorization", authorization)],
            body: Array(#"{"aps":{"alert":"hi"}}"#.utf8))
        let loop = try EventLoop(name: "malformed-client")
        let outcome = await sendSequence(
            on: loop, .init(host: "127.0.0.1", port: emulator.port, tls: nil), requests + [valid])
        await loop.shutdown()

        #expect(outcome.results.count == requests.count + 1, "every request was answered or reset, none hung")
        for (request, result) in zip(requests, outcome.results) {
            guard case .success(let response) = result else {
                // nghttp2 resets what HTTP/2 calls malformed (RFC 9113 8.1.1, 8.2.1): a content-length
                // that is invalid or disagrees with the body, a field value with leading or trailing
                // whitespace. Anything else must get an answer.
                #expect(
                    Self.isMalformedForHTTP2(request),
                    "\(request.method) \(request.path) \(request.headers) \(request.body.count) bytes: \(result)")
                continue
            }
            #expect((200...599).contains(response.status), "\(request.method) \(request.path)")
            if response.status >= 400 {
                let reason = (try? JSONValue(parsing: response.body))?["reason"]?.stringValue
                #expect(reason?.isEmpty == false, "\(request.method) \(request.path): \(response.status) without a reason")
            }
        }
        let answered = outcome.results.filter { (try? $0.get()) != nil }.count
        #expect(answered > requests.count * 3 / 4, "APNs answers, not resets, for most: \(answered)")
        let last = try #require(try outcome.results.last?.get())
        #expect(last.status == 200, "the connection still serves a good request")
        #expect(emulator.server.connectionCount <= 1)
        await emulator.shutdown()
        await loops.shutdown()
    }
}
