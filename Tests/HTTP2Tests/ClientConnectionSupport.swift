import Foundation
import HTTP2
import HeraldTestSupport
import Keys
import Synchronization
import Testing

/// A CA and a server certificate for localhost / 127.0.0.1, fresh per test.
struct TestPKI {
    let authority: CertificateAuthority
    let serverCertificate: Certificate
    let serverKey: PrivateKey

    init(commonName: String = "localhost") throws {
        authority = try CertificateAuthority.generate(commonName: "Herald Test CA")
        (serverCertificate, serverKey) = try authority.issue(
            commonName: commonName, subjectAlternativeNames: [commonName, "127.0.0.1"], isClient: false)
    }

    func clientContext(serverName: String = "localhost") throws -> TLSContext {
        try TLSContext(.client(serverHostname: serverName, trustRoots: .certificates([authority.certificate])))
    }
}
