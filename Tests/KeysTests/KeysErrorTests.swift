import Keys
import Testing

@Suite("KeysError messages")
struct KeysErrorTests {
    static let examples: [(KeysError, String)] = [
        (
            .fileUnreadable(path: "/etc/herald/AuthKey.p8", reason: "Permission denied"),
            "cannot read key file \"/etc/herald/AuthKey.p8\": Permission denied"
        ),
        (
            .notPEM(expected: "PEM private key", path: "/k.p8", reason: "the input is empty"),
            "no PEM private key found in \"/k.p8\": the input is empty; expected '-----BEGIN PRIVATE KEY-----'"
                + " (PKCS#8, Apple .p8) or '-----BEGIN EC PRIVATE KEY-----' (SEC1)"
        ),
        (
            .unsupportedKeyType(found: "RSA"),
            "unsupported key type RSA; only EC P-256 (prime256v1) keys are allowed"
        ),
        (
            .malformedSignature("raw signature is 63 bytes, not 64"),
            "malformed ECDSA P-256 signature: raw signature is 63 bytes, not 64;"
                + " expected 64-byte raw R||S or a DER ECDSA-Sig-Value"
        ),
        (
            .openSSLFailure(function: "EVP_DigestSign", errors: ["error:1", "error:2"]),
            "OpenSSL EVP_DigestSign failed: error:1; error:2"
        ),
        (.openSSLFailure(function: "BIO_new", errors: []), "OpenSSL BIO_new failed: no error reported"),
    ]

    @Test(
        "each kind reads as one line naming the problem and what is allowed", .timeLimit(.minutes(1)),
        arguments: examples)
    func description(error: KeysError, expected: String) {
        #expect(error.description == expected)
    }

    @Test("a path with a newline keeps the message on one line", .timeLimit(.minutes(1)))
    func newlineInPath() {
        let error = KeysError.encryptedKey(path: "/tmp/a\nb.p8")
        #expect(!error.description.contains("\n"))
        #expect(error.description.contains(#""/tmp/a\nb.p8""#))
    }
}
