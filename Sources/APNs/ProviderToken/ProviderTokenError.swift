import Keys

/// Why a provider token could not be made, or was not accepted.
public enum ProviderTokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A key id or team id that is not 10 letters and digits.
    case invalidIdentifier(field: String, value: String)
    /// The key could not be loaded or could not sign.
    case key(KeysError)
    /// The `authorization` header is absent, empty, or not `bearer <token>`.
    case missing
    /// Not a JWT: not three base64url parts, or header/claims not the JSON APNs expects.
    case malformed(String)
    /// `alg` is not ES256 (`none` included).
    case unsupportedAlgorithm(String)
    /// No key is known for this `kid`.
    case unknownKeyID(String)
    /// The `iss` claim is not the team that owns the key.
    case wrongIssuer(keyID: String, expected: String, found: String)
    /// The signature does not verify with the key for `kid` (a tampered token, or another key).
    case badSignature(keyID: String)
    /// `iat` is more than an hour old.
    case expired(issuedAt: Int, ageSeconds: Int)
    /// `iat` is further in the future than the verifier tolerates.
    case issuedInFuture(issuedAt: Int, aheadSeconds: Int)

    /// The reason APNs answers with for this problem.
    public var reason: Reason {
        switch self {
        case .missing: .missingProviderToken
        case .expired: .expiredProviderToken
        default: .invalidProviderToken
        }
    }

    public var description: String {
        switch self {
        case .invalidIdentifier(let field, let value):
            "the \(field) \(quoted(value, limit: 20)) is not valid; it is 10 letters or digits, as shown in your Apple developer account"
        case .key(let error): error.description
        case .missing: "no provider token: the authorization header must be 'bearer <JWT>'"
        case .malformed(let detail): "the provider token is not a valid JWT: \(detail)"
        case .unsupportedAlgorithm(let alg): "the provider token's alg is \(quoted(alg, limit: 20)); APNs accepts ES256 only"
        case .unknownKeyID(let kid): "no key is known for key id \(quoted(kid, limit: 20))"
        case .wrongIssuer(let kid, let expected, let found):
            "the provider token's iss is \(quoted(found, limit: 20)), but key \(kid) belongs to team \(expected)"
        case .badSignature(let kid): "the provider token's signature does not verify with key \(kid)"
        case .expired(let issuedAt, let age):
            "the provider token was issued at \(issuedAt), \(age) s ago; tokens expire after 3600 s"
        case .issuedInFuture(let issuedAt, let ahead):
            "the provider token's iat \(issuedAt) is \(ahead) s in the future; check the sender's clock"
        }
    }
}
