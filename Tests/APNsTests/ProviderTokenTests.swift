import APNs
import Foundation
import Keys
import Synchronization
import Testing

/// Provider tokens: Herald's signer and verifier against each other and against PyJWT, an
/// independent implementation, and Apple's openssl recipe (DER signatures).
@Suite(.timeLimit(.minutes(1)))
struct ProviderTokenTests {
    let key: P256PrivateKey
    let signer: ProviderTokenSigner
    let verifier: ProviderTokenVerifier
    let now = Int(Date().timeIntervalSince1970)

    init() throws {
        key = try P256PrivateKey.generate()
        signer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        verifier = ProviderTokenVerifier(keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)])
    }

    @Test func tokenHasAppleShape() throws {
        let token = try signer.sign(issuedAt: 1_437_179_036)
        let parts = token.value.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        #expect(!token.value.contains("="))
        let header = try JSONValue(parsing: Base64URL.decode(parts[0]) ?? [])
        let claims = try JSONValue(parsing: Base64URL.decode(parts[1]) ?? [])
        #expect(header.isEquivalent(to: ["alg": "ES256", "kid": "ABC123DEFG"]))
        #expect(claims.isEquivalent(to: ["iss": "DEF123GHIJ", "iat": 1_437_179_036]))
        #expect(Base64URL.decode(parts[2])?.count == 64)
        #expect(token.authorization == "bearer \(token.value)")
        #expect(!token.description.contains(token.value))
    }

    @Test func heraldVerifiesItsOwnTokens() throws {
        let verified = try verifier.verify(token: try signer.sign(issuedAt: now).value, now: now)
        #expect(verified == .init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", issuedAt: now))
    }

    @Test func pyJWTVerifiesHeraldTokens() throws {
        let token = try signer.sign(issuedAt: now).value
        let checked = try ExternalTool.run(
            "python3",
            ["-c", "import sys, jwt; c = jwt.decode(sys.argv[1], sys.stdin.read(), algorithms=['ES256']); h = jwt.get_unverified_header(sys.argv[1]); print(h['kid'], c['iss'], c['iat'])", token],
            stdin: try key.publicKey.pem())
        #expect(checked == "ABC123DEFG DEF123GHIJ \(now)")
    }

    @Test func heraldVerifiesPyJWTTokens() throws {
        let token = try ExternalTool.run(
            "python3",
            ["-c", "import sys, jwt; print(jwt.encode({'iss': 'DEF123GHIJ', 'iat': int(sys.argv[1])}, sys.stdin.read(), algorithm='ES256', headers={'kid': 'ABC123DEFG'}))", String(now)],
            stdin: try key.pkcs8PEM())
        let verified = try verifier.verify(token: token, now: now)
        #expect(verified.issuedAt == now)
        #expect(verified.teamID == "DEF123GHIJ")
    }

    @Test func heraldVerifiesDERSignatures() throws {
        let token = try signer.sign(issuedAt: now).value
        let parts = token.split(separator: ".")
        let der = try ECDSASignature.rawToDER(Base64URL.decode(parts[2]) ?? [])
        let derToken = "\(parts[0]).\(parts[1]).\(Base64URL.encode(der))"
        #expect(try verifier.verify(token: derToken, now: now).issuedAt == now)
    }

    /// Apple's own recipe: `openssl dgst -sha256 -sign` produces a DER signature; APNs accepts it.
    @Test func heraldVerifiesApplesOpenSSLRecipe() throws {
        let directory = try TemporaryDirectory()
        let keyFile = try directory.write("AuthKey.p8", try key.pkcs8PEM())
        let header = Base64URL.encode(Array(#"{"alg":"ES256","kid":"ABC123DEFG"}"#.utf8))
        let claims = Base64URL.encode(Array(#"{"iss":"DEF123GHIJ","iat":\#(now)}"#.utf8))
        let signatureFile = "\(directory.path)/signature.der"
        _ = try ExternalTool.run("openssl", ["dgst", "-sha256", "-sign", keyFile, "-out", signatureFile], stdin: "\(header).\(claims)")
        let der = Array(try Data(contentsOf: URL(fileURLWithPath: signatureFile)))
        #expect(der.first == 0x30)
        let token = "\(header).\(claims).\(Base64URL.encode(der))"
        #expect(try verifier.verify(authorization: "bearer \(token)", now: now).keyID == "ABC123DEFG")
    }

    @Test func rejectionsAreDistinct() throws {
        let good = try signer.sign(issuedAt: now).value
        let parts = good.split(separator: ".").map(String.init)

        // Tampered claims: the signature no longer matches.
        let forgedClaims = Base64URL.encode(Array(#"{"iss":"DEF123GHIJ","iat":\#(now + 1)}"#.utf8))
        #expect(error { try verifier.verify(token: "\(parts[0]).\(forgedClaims).\(parts[2])", now: now) } == .badSignature(keyID: "ABC123DEFG"))

        // Signed by another key under the same key id.
        let other = try ProviderTokenSigner(key: try P256PrivateKey.generate(), keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        #expect(error { try verifier.verify(token: try other.sign(issuedAt: now).value, now: now) } == .badSignature(keyID: "ABC123DEFG"))

        // A key id the verifier does not know.
        let stranger = try ProviderTokenSigner(key: key, keyID: "ZZZ999ZZZZ", teamID: "DEF123GHIJ")
        #expect(error { try verifier.verify(token: try stranger.sign(issuedAt: now).value, now: now) } == .unknownKeyID("ZZZ999ZZZZ"))

        // alg none, unsigned.
        let none = Base64URL.encode(Array(#"{"alg":"none","kid":"ABC123DEFG"}"#.utf8))
        #expect(error { try verifier.verify(token: "\(none).\(parts[1]).", now: now) } == .unsupportedAlgorithm("none"))

        // Issued more than an hour ago.
        let old = try signer.sign(issuedAt: now - 3601).value
        #expect(error { try verifier.verify(token: old, now: now) } == .expired(issuedAt: now - 3601, ageSeconds: 3601))

        // Another team's iss under this key.
        let wrongTeam = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "XYZ987WXYZ")
        #expect(error { try verifier.verify(token: try wrongTeam.sign(issuedAt: now).value, now: now) }
            == .wrongIssuer(keyID: "ABC123DEFG", expected: "DEF123GHIJ", found: "XYZ987WXYZ"))

        // Far in the future, and not a JWT at all.
        #expect(error { try verifier.verify(token: try signer.sign(issuedAt: now + 3600).value, now: now) }
            == .issuedInFuture(issuedAt: now + 3600, aheadSeconds: 3600))
        #expect(error { try verifier.verify(token: "not-a-jwt", now: now) }.map { if case .malformed = $0 { true } else { false } } == true)
        #expect(error { try verifier.verify(authorization: "", now: now) } == .missing)
        #expect(error { try verifier.verify(authorization: nil, now: now) } == .missing)
    }

    @Test func reasonsMatchAPNs() {
        #expect(ProviderTokenError.missing.reason == .missingProviderToken)
        #expect(ProviderTokenError.expired(issuedAt: 0, ageSeconds: 4000).reason == .expiredProviderToken)
        #expect(ProviderTokenError.badSignature(keyID: "A").reason == .invalidProviderToken)
        #expect(ProviderTokenError.unsupportedAlgorithm("none").reason == .invalidProviderToken)
        #expect(ProviderTokenError.unknownKeyID("A").reason == .invalidProviderToken)
    }

    @Test(arguments: ["", "ABC123DEF", "ABC123DEFGH", "ABC-23DEFG", "ABC123DEF "])
    func identifiersAreTenAlphanumerics(_ bad: String) {
        #expect(throws: ProviderTokenError.invalidIdentifier(field: "key id", value: bad)) {
            try ProviderTokenSigner(key: key, keyID: bad, teamID: "DEF123GHIJ")
        }
    }

    @Test func loadsP8FileAndNeverEchoesIt() throws {
        let directory = try TemporaryDirectory()
        let pem = try key.pkcs8PEM()
        let path = try directory.write("AuthKey_ABC123DEFG.p8", pem)
        let loaded = try ProviderTokenSigner(authKeyPath: path, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        #expect(try verifier.verify(token: try loaded.sign(issuedAt: now).value, now: now).issuedAt == now)

        let garbage = try directory.write("bad.p8", "-----BEGIN PRIVATE KEY-----\nc2VjcmV0IHNlY3JldCBzZWNyZXQ=\n-----END PRIVATE KEY-----\n")
        let failure = error { try ProviderTokenSigner(authKeyPath: garbage, keyID: "ABC123DEFG", teamID: "DEF123GHIJ") }
        let message = failure?.description ?? ""
        #expect(message.contains("bad.p8"))
        #expect(!message.contains("c2VjcmV0"))
    }

    private func error<T>(_ body: () throws -> T) -> ProviderTokenError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? ProviderTokenError
        }
    }
}

@Suite(.timeLimit(.minutes(1)))
struct ProviderTokenCacheTests {
    let signer: ProviderTokenSigner

    init() throws {
        signer = try ProviderTokenSigner(key: try P256PrivateKey.generate(), keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
    }

    @Test func signsOnceAcrossTenThousandConcurrentRequests() async throws {
        let cache = try ProviderTokenCache(signer: signer, clock: { 1_700_000_000 })
        let tokens = try await withThrowingTaskGroup(of: ProviderToken.self) { group in
            for _ in 0..<10_000 {
                group.addTask { try cache.token() }
            }
            var seen = Set<ProviderToken>()
            for try await token in group { seen.insert(token) }
            return seen
        }
        #expect(tokens.count == 1)
        #expect(cache.signatureCount == 1)
    }

    @Test func resignsOnScheduleUnderInjectedClock() throws {
        let clock = Clock(1_700_000_000)
        let cache = try ProviderTokenCache(signer: signer, clock: { clock.now })
        let first = try cache.token()
        #expect(first.issuedAt == 1_700_000_000)

        clock.advance(by: 49 * 60 + 59)
        #expect(try cache.token() == first)
        #expect(cache.signatureCount == 1)

        clock.advance(by: 1)  // 50 minutes: the default refresh age
        let second = try cache.token()
        #expect(second.issuedAt == 1_700_000_000 + 50 * 60)
        #expect(cache.signatureCount == 2)
        #expect(try cache.token() == second)
    }

    @Test func refreshAfterExpiredKeepsTheTwentyMinuteRule() throws {
        let clock = Clock(1_700_000_000)
        let cache = try ProviderTokenCache(signer: signer, clock: { clock.now })
        let first = try cache.token()

        clock.advance(by: 5 * 60)
        #expect(try cache.refresh(after: first) == nil, "a new token within 20 minutes earns TooManyProviderTokenUpdates")

        clock.advance(by: 15 * 60)
        let second = try #require(try cache.refresh(after: first))
        #expect(second.issuedAt == clock.now)
        // A second caller reporting the same stale token gets the new one, not a third signature.
        #expect(try cache.refresh(after: first) == second)
        #expect(cache.signatureCount == 2)
    }

    @Test(arguments: [0, 1199, 3600, 7200])
    func refreshAgeOutsideAppleBoundsIsRejected(_ age: Int) {
        #expect(throws: ProviderTokenError.self) { try ProviderTokenCache(signer: signer, refreshAge: age) }
    }

    /// A settable clock.
    final class Clock: Sendable {
        private let value: Atomic<Int>
        init(_ start: Int) { value = Atomic(start) }
        var now: Int { value.load(ordering: .relaxed) }
        func advance(by seconds: Int) { value.add(seconds, ordering: .relaxed) }
    }
}
