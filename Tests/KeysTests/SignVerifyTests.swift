import Foundation
import Keys
import Testing

@Suite("ES256 sign and verify")
struct SignVerifyTests {
    let message = Array(#"{"alg":"ES256","kid":"ABC123DEFG"}.{"iss":"DEF123GHIJ","iat":1437179036}"#.utf8)

    @Test("a signature verifies with the signer's public key", .timeLimit(.minutes(1)))
    func roundTrip() throws {
        let key = try P256PrivateKey.generate()
        let signature = try key.signES256(message)
        #expect(signature.count == 64)
        #expect(key.publicKey.verifyES256(signature: signature, message: message))
    }

    @Test("the empty message signs and verifies", .timeLimit(.minutes(1)))
    func emptyMessage() throws {
        let key = try P256PrivateKey.generate()
        let signature = try key.signES256([])
        #expect(key.publicKey.verifyES256(signature: signature, message: []))
        #expect(!key.publicKey.verifyES256(signature: signature, message: [0]))
    }

    @Test("a tampered message is rejected", .timeLimit(.minutes(1)), arguments: [0, 17, 71])
    func tamperedMessage(index: Int) throws {
        let key = try P256PrivateKey.generate()
        let signature = try key.signES256(message)
        var tampered = message
        tampered[index] ^= 0x01
        #expect(!key.publicKey.verifyES256(signature: signature, message: tampered))
        #expect(!key.publicKey.verifyES256(signature: signature, message: message + [0]))
    }

    @Test("a tampered signature is rejected", .timeLimit(.minutes(1)), arguments: [0, 31, 32, 63])
    func tamperedSignature(index: Int) throws {
        let key = try P256PrivateKey.generate()
        var signature = try key.signES256(message)
        signature[index] ^= 0x80
        #expect(!key.publicKey.verifyES256(signature: signature, message: message))
    }

    @Test("another key's signature is rejected", .timeLimit(.minutes(1)))
    func wrongKey() throws {
        let signer = try P256PrivateKey.generate()
        let other = try P256PrivateKey.generate()
        let signature = try signer.signES256(message)
        #expect(!other.publicKey.verifyES256(signature: signature, message: message))
        #expect(!other.publicKey.verifyES256(signature: try ECDSASignature.rawToDER(signature), message: message))
    }

    @Test("the DER form of a signature also verifies", .timeLimit(.minutes(1)))
    func derForm() throws {
        let key = try P256PrivateKey.generate()
        let der = try ECDSASignature.rawToDER(try key.signES256(message))
        #expect(der.first == 0x30)
        #expect(key.publicKey.verifyES256(signature: der, message: message))
    }

    static let malformed: [(String, [UInt8])] = [
        ("empty", []),
        ("one byte", [0x30]),
        ("63 bytes", [UInt8](repeating: 0x11, count: 63)),
        ("65 bytes", [UInt8](repeating: 0x11, count: 65)),
        ("64 zero bytes", [UInt8](repeating: 0, count: 64)),
        ("72 bytes of 0xFF", [UInt8](repeating: 0xFF, count: 72)),
        ("truncated DER", [0x30, 0x44, 0x02, 0x20, 0x01]),
        ("DER of r=1 s=1", [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]),
        ("DER with zero-length integers", [0x30, 0x04, 0x02, 0x00, 0x02, 0x00]),
    ]

    @Test("malformed signatures are false, never a trap", .timeLimit(.minutes(1)), arguments: malformed)
    func malformedSignature(name: String, signature: [UInt8]) throws {
        let key = try P256PrivateKey.generate()
        #expect(!key.publicKey.verifyES256(signature: signature, message: message), "\(name)")
    }

    @Test("DER with a trailing byte is rejected", .timeLimit(.minutes(1)))
    func trailingByte() throws {
        let key = try P256PrivateKey.generate()
        let der = try ECDSASignature.rawToDER(try key.signES256(message))
        #expect(!key.publicKey.verifyES256(signature: der + [0x00], message: message))
    }

    @Test("signing concurrently from many tasks with one key", .timeLimit(.minutes(1)))
    func concurrentSigning() async throws {
        let key = try P256PrivateKey.generate()
        let message = self.message
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var allVerified = true
                    for round in 0..<25 {
                        let text = message + Array("\(task)-\(round)".utf8)
                        let signature = try key.signES256(text)
                        allVerified = allVerified && key.publicKey.verifyES256(signature: signature, message: text)
                    }
                    return allVerified
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0 })
    }

    @Test("a DER signature from `openssl dgst -sha256 -sign` verifies", .timeLimit(.minutes(1)))
    func opensslSignature() throws {
        let scratch = try ScratchDirectory()
        let key = try P256PrivateKey.generate()
        let keyPath = try scratch.write("key.p8", try key.pkcs8PEM())
        let messagePath = try scratch.write("message", message)
        try OpenSSLTool.run(["dgst", "-sha256", "-sign", keyPath, "-out", scratch.path("sig.der"), messagePath])
        let der = try scratch.read("sig.der")

        #expect(der.first == 0x30)
        #expect(key.publicKey.verifyES256(signature: der, message: message))
        #expect(key.publicKey.verifyES256(signature: try ECDSASignature.derToRaw(der), message: message))
        #expect(!key.publicKey.verifyES256(signature: der, message: message + [0x0A]))
    }

    @Test("`openssl dgst -sha256 -verify` accepts our signature", .timeLimit(.minutes(1)))
    func opensslVerifies() throws {
        let scratch = try ScratchDirectory()
        let key = try P256PrivateKey.generate()
        let publicKeyPath = try scratch.write("public.pem", try key.publicKey.pem())
        let messagePath = try scratch.write("message", message)
        let signaturePath = try scratch.write("sig.der", try ECDSASignature.rawToDER(try key.signES256(message)))
        let good = try OpenSSLTool.run(
            ["dgst", "-sha256", "-verify", publicKeyPath, "-signature", signaturePath, messagePath],
            allowFailure: true)
        #expect(good == 0)

        let tamperedPath = try scratch.write("tampered", message + [0x0A])
        let bad = try OpenSSLTool.run(
            ["dgst", "-sha256", "-verify", publicKeyPath, "-signature", signaturePath, tamperedPath],
            allowFailure: true)
        #expect(bad != 0)
    }
}
