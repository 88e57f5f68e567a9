import Keys

/// Verifies provider tokens as APNs does: ES256 only, the key for the `kid`, the issuer that owns
/// the key, a signature in raw R||S or DER form (Apple's own openssl recipe produces DER and APNs
/// accepts it), and an `iat` no more than an hour old.
///
/// Immutable after creation; safe to share between threads.
public struct ProviderTokenVerifier: Sendable {
    /// A key the verifier trusts: its id, the team that owns it, its public half.
    public struct TrustedKey: Sendable {
        public let keyID: String
        public let teamID: String
        public let publicKey: P256PublicKey

        public init(keyID: String, teamID: String, publicKey: P256PublicKey) {
            self.keyID = keyID
            self.teamID = teamID
            self.publicKey = publicKey
        }
    }

    /// A token that verified.
    public struct Verified: Sendable, Hashable {
        public let keyID: String
        public let teamID: String
        public let issuedAt: Int

        public init(keyID: String, teamID: String, issuedAt: Int) {
            self.keyID = keyID
            self.teamID = teamID
            self.issuedAt = issuedAt
        }
    }

    /// Tokens older than this are expired (APNs: one hour).
    public static let lifetimeSeconds = 3600

    private let keys: [String: TrustedKey]
    /// How far in the future `iat` may be (Apple does not document it; APNs tolerates some skew).
    public let futureTolerance: Int

    public init(keys: [TrustedKey], futureTolerance: Int = 300) {
        self.keys = Dictionary(keys.map { ($0.keyID, $0) }, uniquingKeysWith: { _, last in last })
        self.futureTolerance = futureTolerance
    }

    /// Verifies the value of an `authorization` header (`bearer <JWT>`).
    public func verify(authorization: String?, now: Int) throws(ProviderTokenError) -> Verified {
        guard let authorization, !authorization.isEmpty else { throw .missing }
        let prefix = "bearer "
        guard authorization.count > prefix.count, authorization.prefix(prefix.count).lowercased() == prefix else {
            throw .missing
        }
        return try verify(token: String(authorization.dropFirst(prefix.count)), now: now)
    }

    /// Verifies a compact JWT.
    public func verify(token: String, now: Int) throws(ProviderTokenError) -> Verified {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("it has \(parts.count) dot-separated parts, not 3") }
        guard let headerBytes = Base64URL.decode(parts[0]), let claimBytes = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2])
        else { throw .malformed("a part is not unpadded base64url") }
        guard let header = try? JSONValue(parsing: headerBytes), header.objectValue != nil else {
            throw .malformed("the header is not a JSON object")
        }
        guard let claims = try? JSONValue(parsing: claimBytes), claims.objectValue != nil else {
            throw .malformed("the claims are not a JSON object")
        }
        guard let alg = header["alg"]?.stringValue else { throw .malformed("the header has no alg") }
        guard alg == "ES256" else { throw .unsupportedAlgorithm(alg) }
        guard let kid = header["kid"]?.stringValue else { throw .malformed("the header has no kid") }
        guard let key = keys[kid] else { throw .unknownKeyID(kid) }
        guard let issuer = claims["iss"]?.stringValue else { throw .malformed("the claims have no iss") }
        guard let issuedAt = claims["iat"]?.intValue else { throw .malformed("the claims have no integer iat") }
        let signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard key.publicKey.verifyES256(signature: signature, message: signingInput) else { throw .badSignature(keyID: kid) }
        guard issuer == key.teamID else { throw .wrongIssuer(keyID: kid, expected: key.teamID, found: issuer) }
        // iat is any integer the signer chose: the differences saturate rather than overflow (a
        // signed iat near Int.min trapped here: FuzzFindingsTests).
        let age = now.subtractingSaturating(issuedAt)
        if age > Self.lifetimeSeconds { throw .expired(issuedAt: issuedAt, ageSeconds: age) }
        let ahead = issuedAt.subtractingSaturating(now)
        if ahead > futureTolerance { throw .issuedInFuture(issuedAt: issuedAt, aheadSeconds: ahead) }
        return Verified(keyID: kid, teamID: issuer, issuedAt: issuedAt)
    }
}

extension Int {
    /// `self - other`, or the nearest representable value when that overflows.
    fileprivate func subtractingSaturating(_ other: Int) -> Int {
        let (difference, overflow) = subtractingReportingOverflow(other)
        guard overflow else { return difference }
        return other > 0 ? .min : .max
    }
}
