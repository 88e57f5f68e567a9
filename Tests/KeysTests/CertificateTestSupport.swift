import Foundation
import HeraldTestSupport
import Keys

/// Runs `/usr/bin/openssl` and returns what it printed, for checking generated certificates against it.
enum OpenSSLOutput {
    /// The standard output of `openssl arguments`; throws `OpenSSLTool.Failure` on a nonzero exit.
    static func run(_ arguments: [String]) throws -> String {
        let process = try ChildProcess("/usr/bin/openssl", arguments)
        let status = process.waitUntilExit()
        guard status == 0 else {
            throw OpenSSLTool.Failure(
                arguments: arguments, status: status,
                stderr: String(decoding: process.waitForCapturedErrors(), as: UTF8.self))
        }
        return String(decoding: process.waitForCapturedOutput(), as: UTF8.self)
    }
}

/// Now, as UNIX seconds.
func unixNow() -> Int64 {
    Int64(Date().timeIntervalSince1970)
}

/// A certificate authority and a server certificate for localhost it issued, with their PEM files.
struct IssuedFixture {
    let authority: CertificateAuthority
    let leaf: Certificate
    let leafKey: PrivateKey

    init(isClient: Bool = false) throws {
        authority = try CertificateAuthority.generate(commonName: "Herald Test CA")
        (leaf, leafKey) = try authority.issue(
            commonName: "localhost", subjectAlternativeNames: ["localhost", "127.0.0.1", "::1"], isClient: isClient)
    }

    /// Writes `ca.pem`, `leaf.pem` and `leaf-key.pem` into `scratch`.
    func write(to scratch: ScratchDirectory) throws {
        try scratch.write("ca.pem", try authority.certificate.pem())
        try scratch.write("leaf.pem", try leaf.pem())
        try scratch.write("leaf-key.pem", try leafKey.pkcs8PEM())
    }
}
