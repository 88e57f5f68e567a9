import Keys
import Testing

@Suite("P256PublicKey")
struct P256PublicKeyTests {
    @Test("pem() loads back and verifies the same signatures", .timeLimit(.minutes(1)))
    func pemRoundTrip() throws {
        let key = try P256PrivateKey.generate()
        let pem = try key.publicKey.pem()
        #expect(pem.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        #expect(pem.hasSuffix("-----END PUBLIC KEY-----\n"))
        let loaded = try P256PublicKey(pem: "\r\n " + pem.replacingOccurrences(of: "\n", with: "\r\n") + "  ")
        #expect(try loaded.pem() == pem)
        let message = Array("payload".utf8)
        #expect(loaded.verifyES256(signature: try key.signES256(message), message: message))
        #expect(!loaded.verifyES256(signature: try P256PrivateKey.generate().signES256(message), message: message))
    }

    @Test("a public key written by openssl loads", .timeLimit(.minutes(1)))
    func opensslPublicKey() throws {
        let scratch = try ScratchDirectory()
        let key = try P256PrivateKey.generate()
        let keyPath = try scratch.write("key.p8", try key.pkcs8PEM())
        try OpenSSLTool.run(["pkey", "-in", keyPath, "-pubout", "-out", scratch.path("public.pem")])
        let loaded = try P256PublicKey(pem: try scratch.readText("public.pem"))
        #expect(try loaded.pem() == key.publicKey.pem())
    }

    @Test(
        "a P-384 or RSA public key is rejected", .timeLimit(.minutes(1)),
        arguments: [
            (["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"], "EC on curve secp384r1"),
            (["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"], "RSA"),
        ])
    func otherPublicKeyRejected(arguments: [String], found: String) throws {
        let scratch = try ScratchDirectory()
        try OpenSSLTool.run(["genpkey"] + arguments + ["-out", scratch.path("key.pem")])
        try OpenSSLTool.run(["pkey", "-in", scratch.path("key.pem"), "-pubout", "-out", scratch.path("public.pem")])
        let pem = try scratch.readText("public.pem")
        let error = keysError { () throws(KeysError) in try P256PublicKey(pem: pem) }
        #expect(error?.kind == .unsupportedKeyType(found: found, path: nil))
    }

    @Test("a private key or garbage given as a public key is rejected", .timeLimit(.minutes(1)))
    func notAPublicKey() throws {
        let privatePEM = try P256PrivateKey.generate().pkcs8PEM()
        for (text, phrase) in [
            (privatePEM, "labelled 'PRIVATE KEY', none of them a public key"),
            ("", "the input is empty"),
            ("-----BEGIN PUBLIC KEY-----\nnot base64!\n-----END PUBLIC KEY-----", "could not be decoded"),
        ] {
            let error = keysError { () throws(KeysError) in try P256PublicKey(pem: text) }
            guard case .notPEM(let expected, _, let reason) = error?.kind else {
                Issue.record("expected notPEM, got \(String(describing: error))")
                continue
            }
            #expect(expected == "PEM public key")
            #expect(reason.contains(phrase), "\(reason)")
            #expect(error?.description.contains("-----BEGIN PUBLIC KEY-----") == true)
            for line in base64BodyLines(of: privatePEM) {
                #expect(error?.description.contains(line) == false)
            }
        }
    }
}
