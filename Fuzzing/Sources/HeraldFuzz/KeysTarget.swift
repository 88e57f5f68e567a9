@testable import Keys

/// PEM and DER key and certificate loading (OpenSSL underneath, Herald's PEM framing and the
/// certificate fields Herald reads on top): never a crash, and a loaded key or certificate writes
/// back out and loads again.
enum KeysTarget {
    static func run(_ input: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: input, as: UTF8.self)
        if let key = try? P256PrivateKey(pem: text) {
            require(
                (try? key.pkcs8PEM()).flatMap { try? P256PrivateKey(pem: $0) } != nil,
                "a loaded private key does not reload")
        }
        if let key = try? P256PublicKey(pem: text) {
            require(
                (try? key.pem()).flatMap { try? P256PublicKey(pem: $0) } != nil, "a loaded public key does not reload")
        }
        _ = try? PrivateKey(pem: text, password: nil)
        _ = try? PrivateKey(pem: text, password: "secret")
        for certificate in (try? Certificate.chain(pem: text)) ?? [] { readFields(certificate) }
        if let certificate = try? Certificate(pem: text) { readFields(certificate) }
        // DER starts with a SEQUENCE; PKCS#12's key derivation is slow, so only then.
        if input.first == 0x30 {
            let der = Array(input)
            if let certificate = try? Certificate(der: der) { readFields(certificate) }
            _ = try? PKCS12Bundle(der: der, password: "")
        }
    }

    static func readFields(_ certificate: Certificate) {
        _ = certificate.subject
        _ = certificate.issuer
        _ = certificate.commonName
        _ = certificate.apnsTopics
        _ = certificate.apnsEnvironments
        _ = certificate.isValid(at: 1_800_000_000)
        _ = certificate.extensionValue(oid: APNsEnvironment.topicsOID)
        if let der = try? certificate.der() {
            require((try? Certificate(der: der)) == certificate, "a loaded certificate does not reload from its DER")
        }
        if let pem = try? certificate.pem() {
            require((try? Certificate(pem: pem)) == certificate, "a loaded certificate does not reload from its PEM")
        }
    }
}
