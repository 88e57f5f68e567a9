// Provider authentication tokens (Apple: "Establishing a token-based connection to APNs").
//
//   header  {"alg":"ES256","kid":"<10-character key id>"}
//   claims  {"iss":"<10-character team id>","iat":<UNIX seconds>}
//   token   base64url(header) "." base64url(claims) "." base64url(R||S)   (no padding)
//
// The signature is ES256 over the first two parts, in the raw 64-byte JOSE form.

import Keys

/// A signed provider token, ready for `authorization: bearer <token>`.
public struct ProviderToken: Sendable, Hashable, CustomStringConvertible {
    /// The compact JWT.
    public let value: String
    public let keyID: String
    public let teamID: String
    /// When it was signed, in UNIX seconds (the `iat` claim).
    public let issuedAt: Int

    /// The `authorization` header value. Made once per token, not per request: the same string
    /// for every request lets the transport see at a glance that its header block still applies.
    public let authorization: String

    init(value: String, keyID: String, teamID: String, issuedAt: Int) {
        self.value = value
        self.keyID = keyID
        self.teamID = teamID
        self.issuedAt = issuedAt
        self.authorization = "bearer " + value
    }

    /// Shows whose token it is and when it was issued, never the token itself.
    public var description: String { "provider token (key \(keyID), team \(teamID), issued at \(issuedAt))" }
}

/// Signs provider tokens with a team's APNs auth key (.p8).
public struct ProviderTokenSigner: Sendable {
    public let keyID: String
    public let teamID: String
    private let key: P256PrivateKey

    /// - Throws: `ProviderTokenError.invalidIdentifier` unless key id and team id are 10 letters or digits.
    public init(key: P256PrivateKey, keyID: String, teamID: String) throws(ProviderTokenError) {
        try ProviderTokenSigner.checkIdentifier(keyID, field: "key id")
        try ProviderTokenSigner.checkIdentifier(teamID, field: "team id")
        self.key = key
        self.keyID = keyID
        self.teamID = teamID
    }

    /// Loads the .p8 file at `path` (PKCS#8 PEM; SEC1 too).
    public init(authKeyPath path: String, keyID: String, teamID: String) throws(ProviderTokenError) {
        let key: P256PrivateKey
        do {
            key = try P256PrivateKey(contentsOfFile: path)
        } catch {
            throw .key(error)
        }
        try self.init(key: key, keyID: keyID, teamID: teamID)
    }

    /// A token issued at `issuedAt` (UNIX seconds).
    public func sign(issuedAt: Int) throws(ProviderTokenError) -> ProviderToken {
        let header: JSONValue = ["alg": "ES256", "kid": .string(keyID)]
        let claims: JSONValue = ["iss": .string(teamID), "iat": .number(JSONNumber(issuedAt))]
        let signingInput = Base64URL.encode(header.encoded()) + "." + Base64URL.encode(claims.encoded())
        let signature: [UInt8]
        do {
            signature = try key.signES256(Array(signingInput.utf8))
        } catch {
            throw .key(error)
        }
        return ProviderToken(
            value: signingInput + "." + Base64URL.encode(signature), keyID: keyID, teamID: teamID, issuedAt: issuedAt)
    }

    static func checkIdentifier(_ value: String, field: String) throws(ProviderTokenError) {
        let valid = value.utf8.count == 10 && value.utf8.allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        }
        guard valid else {
            throw .invalidIdentifier(field: field, value: value)
        }
    }
}
