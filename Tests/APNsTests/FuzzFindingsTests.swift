import APNs
import Keys
import Testing

/// Inputs the fuzz targets (Fuzzing/, docs/FUZZING.md) found crashing or breaking a property, each
/// minimized, with the answer the fixed code gives.
@Suite(.timeLimit(.minutes(1)))
struct FuzzFindingsTests {
    static let now = 1_800_000_000

    /// provider-token: a correctly signed token whose iat is near Int.min trapped on `now - iat`
    /// (integer overflow) in the verifier, after the signature check: any holder of a trusted key
    /// could stop the emulator with one request.
    @Test(arguments: [Int.min, Int.min + 1, -now, Int.max, Int.max - 1])
    func providerTokenWithExtremeIssuedAtIsRefusedNotATrap(issuedAt: Int) throws {
        let key = try P256PrivateKey.generate()
        let signer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let verifier = ProviderTokenVerifier(
            keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)])
        let token = try signer.sign(issuedAt: issuedAt).value
        #expect(throws: ProviderTokenError.self) { try verifier.verify(token: token, now: Self.now) }
        do {
            _ = try verifier.verify(token: token, now: Self.now)
        } catch .expired(let iat, let age) {
            #expect(iat == issuedAt && issuedAt < 0 && age > 3600)
        } catch .issuedInFuture(let iat, let ahead) {
            #expect(iat == issuedAt && issuedAt > 0 && ahead > 300)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    /// payload-vs-lint: an alert's `sound` that is not a string was refused by `Payload` while the
    /// linter, for an alert push, only warns that the device ignores the key (`sound` belongs in an
    /// alert only for a Live Activity). Payload now keeps it like an unknown key.
    @Test func anAlertSoundThatIsNotAStringIsKeptNotRefused() throws {
        let body = Array(#"{"aps":{"alert":{"title":"Glucose low","sound":{"name":"default"}}}}"#.utf8)
        let payload = try Payload(bytes: body)
        #expect(try Payload(bytes: payload.encoded().bytes) == payload)
        let report = Linter.lint(LintRequest(payload: body))
        #expect(!report.findings.contains { $0.severity == .error })
        #expect(report.findings.contains { $0.rule == .alertUnknownKey && $0.path == "aps.alert.sound" })
        let named = try Payload(bytes: Array(#"{"aps":{"alert":{"title":"t","sound":"chime.caf"}}}"#.utf8))
        #expect(named.encoded().bytes == Array(#"{"aps":{"alert":{"title":"t","sound":"chime.caf"}}}"#.utf8))
    }

    /// payload-vs-lint: `aps.alert` written twice, the first copy with a number as its title. The
    /// typed `Payload` decoded every copy and refused the first, while the linter (like a receiver)
    /// reads the last and only warns about the repeated key. Payload now keeps only the last copy.
    @Test func aRepeatedKeyIsReadAsItsLastCopy() throws {
        let body = Array(#"{"aps":{"alert":{"title":4},"alert":{"title":"Arrived"},"sound":"default"}}"#.utf8)
        let payload = try Payload(bytes: body)
        #expect(payload.aps?.alert == .content(AlertContent(title: "Arrived")))
        #expect(try Payload(bytes: payload.encoded().bytes) == payload)
        let report = Linter.lint(LintRequest(payload: body))
        #expect(!report.findings.contains { $0.severity == .error }, "\(report.findings)")
        #expect(report.findings.contains { $0.rule == .duplicateKey })
        let reversed = Array(#"{"aps":{"alert":{"title":"Arrived"},"alert":{"title":4}}}"#.utf8)
        #expect(throws: PayloadError.self) { try Payload(bytes: reversed) }
        #expect(Linter.lint(LintRequest(payload: reversed)).findings.contains { $0.severity == .error })
    }
}
