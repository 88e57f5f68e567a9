import APNs
import Keys

/// The provider-token verifier. An input starting with `!` is a whole `authorization` header, as a
/// client sends it; any other input is a JWT header and claims (JSON, split at the first newline)
/// that the target signs with the trusted key, so the checks after the signature are reached too.
enum ProviderTokenTarget {
    static let keyID = "ABC123DEFG"
    static let teamID = "DEF123GHIJ"
    static let now = 1_800_000_000

    static let key: P256PrivateKey = {
        guard let key = try? P256PrivateKey.generate() else { fatalError("cannot generate a P-256 key") }
        return key
    }()

    static let verifier = ProviderTokenVerifier(keys: [.init(keyID: keyID, teamID: teamID, publicKey: key.publicKey)])

    static func run(_ input: UnsafeBufferPointer<UInt8>) {
        if input.first == UInt8(ascii: "!") {
            let header = String(decoding: input.dropFirst(), as: UTF8.self)
            _ = try? verifier.verify(authorization: header, now: now)
            return
        }
        let (header, claims) = input.split(at: 0x0A)
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(claims ?? [])
        guard let signature = try? key.signES256(Array(signingInput.utf8)) else { return }
        let token = signingInput + "." + Base64URL.encode(signature)
        guard let verified = try? verifier.verify(authorization: "bearer " + token, now: now) else { return }
        require(verified.keyID == keyID && verified.teamID == teamID, "verified \(verified) for another key")
        require(
            abs(now - verified.issuedAt) <= ProviderTokenVerifier.lifetimeSeconds, "verified a stale token: \(verified)"
        )
    }
}
