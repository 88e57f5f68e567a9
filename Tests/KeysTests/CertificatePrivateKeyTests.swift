import Foundation
import Keys
import Testing

@Suite("PrivateKey for TLS identities", .timeLimit(.minutes(1)))
struct CertificatePrivateKeyTests {
    /// openssl commands writing a key to the path given last, the PEM label expected, type and bits.
    static let opensslKeys: [(String, [String], String, String, Int)] = [
        ("PKCS#1 RSA", ["genrsa", "-traditional", "-out"], "RSA PRIVATE KEY", "RSA", 2048),
        (
            "PKCS#8 RSA", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out"], "PRIVATE KEY",
            "RSA", 2048
        ),
        ("SEC1 P-256", ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out"], "EC PRIVATE KEY", "EC", 256),
        (
            "PKCS#8 P-384", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out"],
            "PRIVATE KEY", "EC", 384
        ),
    ]

    @Test("keys written by openssl load, from text and from a file", arguments: opensslKeys)
    func opensslKeyLoads(name: String, command: [String], label: String, type: String, bits: Int) throws {
        let scratch = try ScratchDirectory()
        try OpenSSLTool.run(command + [scratch.path("key.pem")])
        let text = try scratch.readText("key.pem")
        #expect(text.hasPrefix("-----BEGIN \(label)-----"), "\(name)")
        let key = try PrivateKey(pem: text)
        #expect(key.typeName == type && key.bits == bits, "\(name)")
        let fromFile = try PrivateKey(contentsOfFile: scratch.path("key.pem"), password: "ignored for a plain key")
        #expect(try fromFile.pkcs8PEM() == key.pkcs8PEM())
    }

    @Test("an encrypted key loads with its password; without one or with a wrong one the error says so")
    func encryptedKey() throws {
        let scratch = try ScratchDirectory()
        let password = "correct horse 9"
        try OpenSSLTool.run([
            "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-aes-256-cbc",
            "-pass", "pass:\(password)", "-out", scratch.path("enc.pem"),
        ])
        let path = scratch.path("enc.pem")
        #expect(try scratch.readText("enc.pem").hasPrefix("-----BEGIN ENCRYPTED PRIVATE KEY-----"))
        #expect(try PrivateKey(contentsOfFile: path, password: password).typeName == "RSA")

        let missing = keysError { () throws(KeysError) in try PrivateKey(contentsOfFile: path) }
        #expect(missing == .passwordRequired(path: path))
        let wrong = keysError { () throws(KeysError) in
            try PrivateKey(contentsOfFile: path, password: "wrong-guess-123")
        }
        #expect(wrong == .wrongPassword(item: "private key", path: path))
        let message = wrong?.description ?? ""
        #expect(message.contains(path) && message.contains("wrong password"))
        #expect(!message.contains("wrong-guess-123") && !message.contains(password))
    }

    @Test("a traditional encrypted PKCS#1 key (Proc-Type header) is recognised too")
    func traditionalEncrypted() throws {
        let scratch = try ScratchDirectory()
        try OpenSSLTool.run([
            "genrsa", "-traditional", "-aes128", "-passout", "pass:secret", "-out", scratch.path("k.pem"),
        ])
        let text = try scratch.readText("k.pem")
        #expect(text.contains("Proc-Type: 4,ENCRYPTED"))
        #expect(try PrivateKey(pem: text, password: "secret").bits == 2048)
        #expect(keysError { () throws(KeysError) in try PrivateKey(pem: text) } == .passwordRequired())
        #expect(
            keysError { () throws(KeysError) in try PrivateKey(pem: text, password: "nope") }
                == .wrongPassword(item: "private key"))
    }

    @Test("a certificate is not a key: the error lists the accepted forms")
    func notAKey() throws {
        let fixture = try IssuedFixture()
        let error = keysError { () throws(KeysError) in try PrivateKey(pem: try fixture.leaf.pem()) }
        let message = error?.description ?? ""
        #expect(message.contains("no PEM private key (RSA or EC) found"))
        #expect(message.contains("'CERTIFICATE'"))
        #expect(message.contains("'-----BEGIN RSA PRIVATE KEY-----' (PKCS#1)"))
    }

    @Test("generated keys: P-256 by default, RSA sizes checked")
    func generation() throws {
        let key = try PrivateKey.generate()
        #expect(key.typeName == "EC" && key.bits == 256)
        #expect(try PrivateKey(pem: key.pkcs8PEM()).pkcs8PEM() == key.pkcs8PEM())
        guard
            case .invalidCertificateRequest? = keysError({ () throws(KeysError) in
                try PrivateKey.generate(.rsa(bits: 1024))
            })?.kind
        else {
            Issue.record("RSA 1024 should be refused")
            return
        }
    }
}
