import Keys
import Testing

@Suite("SHA256")
struct SHA256Tests {
    /// FIPS 180-2 appendix B vectors and the empty string.
    static let vectors: [(String, String)] = [
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ]

    @Test("known vectors", .timeLimit(.minutes(1)), arguments: vectors)
    func knownVector(input: String, expectedHex: String) {
        let digest = SHA256.hash(Array(input.utf8))
        #expect(digest.count == SHA256.digestSize)
        #expect(hex(digest) == expectedHex)
    }

    @Test("one million 'a'", .timeLimit(.minutes(1)))
    func millionA() {
        let digest = SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
        #expect(
            hex(digest)
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
