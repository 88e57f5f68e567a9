/// Why a key could not be loaded or written, or a signature could not be converted.
///
/// Messages are one line: they say what was wrong, with which file or function, and what is allowed.
/// They never contain key material: not the PEM text, not its base64 body, not a passphrase.
public struct KeysError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong; match on this.
    public enum Kind: Sendable, Equatable {
        /// The key file could not be read: `reason` is `strerror(errno)` or a size limit.
        case fileUnreadable(path: String, reason: String)
        /// The input holds no usable PEM block of the kind `expected` (`reason` says what was there instead).
        case notPEM(expected: String, path: String?, reason: String)
        /// The private key is protected by a passphrase; Herald loads only unencrypted keys.
        case encryptedKey(path: String?)
        /// The key decoded, but is not an EC P-256 key: `found` names it, e.g. `RSA` or `EC secp384r1`.
        case unsupportedKeyType(found: String, path: String?)
        /// A signature is not 64-byte raw R||S or a DER ECDSA-Sig-Value with 32-byte R and S.
        case malformedSignature(reason: String)
        /// An OpenSSL call failed: `function` is its name, `errors` the drained `ERR_` error queue.
        case openSSLFailure(function: String, errors: [String])
        /// The input is not a usable X.509 certificate (bad DER, trailing bytes, undecodable validity).
        case malformedCertificate(reason: String, path: String?)
        /// The private key is encrypted and no password was given.
        case passwordRequired(path: String?)
        /// The password given does not decrypt `item` (a private key or a PKCS#12 bundle). Never holds the password.
        case wrongPassword(item: String, path: String?)
        /// The input is not a usable PKCS#12 (.p12) bundle: not DER, no certificate or key, unsupported algorithms.
        case malformedPKCS12(reason: String, path: String?)
        /// A certificate to be generated was described wrongly (a bad name, OID, extension or validity).
        case invalidCertificateRequest(reason: String)
    }

    public let kind: Kind

    public init(_ kind: Kind) {
        self.kind = kind
    }

    public static func fileUnreadable(path: String, reason: String) -> KeysError {
        KeysError(.fileUnreadable(path: path, reason: reason))
    }

    public static func notPEM(expected: String, path: String? = nil, reason: String) -> KeysError {
        KeysError(.notPEM(expected: expected, path: path, reason: reason))
    }

    public static func encryptedKey(path: String? = nil) -> KeysError {
        KeysError(.encryptedKey(path: path))
    }

    public static func unsupportedKeyType(found: String, path: String? = nil) -> KeysError {
        KeysError(.unsupportedKeyType(found: found, path: path))
    }

    public static func malformedSignature(_ reason: String) -> KeysError {
        KeysError(.malformedSignature(reason: reason))
    }

    public static func openSSLFailure(function: String, errors: [String]) -> KeysError {
        KeysError(.openSSLFailure(function: function, errors: errors))
    }

    public static func malformedCertificate(_ reason: String, path: String? = nil) -> KeysError {
        KeysError(.malformedCertificate(reason: reason, path: path))
    }

    public static func passwordRequired(path: String? = nil) -> KeysError {
        KeysError(.passwordRequired(path: path))
    }

    public static func wrongPassword(item: String, path: String? = nil) -> KeysError {
        KeysError(.wrongPassword(item: item, path: path))
    }

    public static func malformedPKCS12(_ reason: String, path: String? = nil) -> KeysError {
        KeysError(.malformedPKCS12(reason: reason, path: path))
    }

    public static func invalidCertificateRequest(_ reason: String) -> KeysError {
        KeysError(.invalidCertificateRequest(reason: reason))
    }

    public var description: String {
        switch kind {
        case .fileUnreadable(let path, let reason):
            return "cannot read key file \(quoted(path)): \(reason)"
        case .notPEM(let expected, let path, let reason):
            return "no \(expected) found\(inFile(path)): \(reason); expected \(expectedForms(expected))"
        case .encryptedKey(let path):
            return "the private key\(inFile(path)) is encrypted with a passphrase; only unencrypted PKCS#8 or SEC1"
                + " P-256 keys are allowed (decrypt it with `openssl pkey -in KEY -out PLAIN.p8`)"
        case .unsupportedKeyType(let found, let path):
            return "unsupported key type \(found)\(inFile(path)); only EC P-256 (prime256v1) keys are allowed"
        case .malformedSignature(let reason):
            return "malformed ECDSA P-256 signature: \(reason); expected 64-byte raw R||S or a DER ECDSA-Sig-Value"
        case .openSSLFailure(let function, let errors):
            let queue = errors.isEmpty ? "no error reported" : errors.joined(separator: "; ")
            return "OpenSSL \(function) failed: \(queue)"
        case .malformedCertificate(let reason, let path):
            return "malformed X.509 certificate\(inFile(path)): \(reason)"
        case .passwordRequired(let path):
            return "the private key\(inFile(path)) is encrypted; give its password to load it"
        case .wrongPassword(let item, let path):
            return "the password given does not decrypt the \(item)\(inFile(path)) (wrong password?)"
        case .malformedPKCS12(let reason, let path):
            return "unusable PKCS#12 bundle\(inFile(path)): \(reason)"
        case .invalidCertificateRequest(let reason):
            return "cannot generate the certificate: \(reason)"
        }
    }

    /// This error, naming the file it came from (for errors raised while parsing the file's text).
    func from(path: String) -> KeysError {
        switch kind {
        case .notPEM(let expected, _, let reason): .notPEM(expected: expected, path: path, reason: reason)
        case .encryptedKey: .encryptedKey(path: path)
        case .unsupportedKeyType(let found, _): .unsupportedKeyType(found: found, path: path)
        case .malformedCertificate(let reason, _): .malformedCertificate(reason, path: path)
        case .passwordRequired: .passwordRequired(path: path)
        case .wrongPassword(let item, _): .wrongPassword(item: item, path: path)
        case .malformedPKCS12(let reason, _): .malformedPKCS12(reason, path: path)
        default: self
        }
    }

    private func quoted(_ text: String) -> String {
        String(reflecting: text)  // quotes and escapes newlines, so the message stays on one line
    }

    private func inFile(_ path: String?) -> String {
        path.map { " in \(quoted($0))" } ?? ""
    }

    private func expectedForms(_ expected: String) -> String {
        switch expected {
        case PEMLabel.privateKeyDescription:
            "'-----BEGIN PRIVATE KEY-----' (PKCS#8, Apple .p8) or '-----BEGIN EC PRIVATE KEY-----' (SEC1)"
        case PEMLabel.publicKeyDescription:
            "'-----BEGIN PUBLIC KEY-----' (SubjectPublicKeyInfo)"
        case PEMLabel.certificateDescription:
            "'-----BEGIN CERTIFICATE-----' (X.509)"
        case PEMLabel.anyPrivateKeyDescription:
            "'-----BEGIN PRIVATE KEY-----' (PKCS#8), '-----BEGIN ENCRYPTED PRIVATE KEY-----',"
                + " '-----BEGIN RSA PRIVATE KEY-----' (PKCS#1) or '-----BEGIN EC PRIVATE KEY-----' (SEC1)"
        default:
            expected
        }
    }
}
