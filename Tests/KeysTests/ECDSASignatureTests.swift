import Keys
import Testing

@Suite("ECDSASignature raw <-> DER")
struct ECDSASignatureTests {
    @Test("raw -> DER -> raw keeps real signatures", .timeLimit(.minutes(1)))
    func roundTripRealSignatures() throws {
        let key = try P256PrivateKey.generate()
        for index in 0..<32 {
            let raw = try key.signES256(Array("message \(index)".utf8))
            let der = try ECDSASignature.rawToDER(raw)
            #expect(der.first == 0x30)
            #expect((8...72).contains(der.count))
            #expect(try ECDSASignature.derToRaw(der) == raw)
        }
    }

    /// Exact encodings: minimal integers, a 0x00 prefix when the high bit is set, leading zeros dropped.
    static let vectors: [(name: String, raw: String, der: String)] = [
        (
            "r=1 s=2",
            String(repeating: "00", count: 31) + "01" + String(repeating: "00", count: 31) + "02",
            "3006 020101 020102"
        ),
        (
            "high bit set gets a 0x00 prefix",
            "80" + String(repeating: "00", count: 31) + "7f" + String(repeating: "ff", count: 31),
            "3045 022100 80" + String(repeating: "00", count: 31) + " 0220 7f" + String(repeating: "ff", count: 31)
        ),
        (
            "leading zero bytes are dropped",
            "00002b" + String(repeating: "11", count: 29) + "00" + String(repeating: "22", count: 31),
            "3041 021e 2b" + String(repeating: "11", count: 29) + " 021f " + String(repeating: "22", count: 31)
        ),
    ]

    @Test("known encodings", .timeLimit(.minutes(1)), arguments: vectors)
    func knownEncodings(vector: (name: String, raw: String, der: String)) throws {
        let raw = bytes(hex: vector.raw)
        let der = bytes(hex: vector.der)
        #expect(raw.count == 64, "\(vector.name)")
        #expect(hex(try ECDSASignature.rawToDER(raw)) == hex(der), "\(vector.name)")
        #expect(try ECDSASignature.derToRaw(der) == raw, "\(vector.name)")
    }

    @Test("rawToDER needs exactly 64 bytes", .timeLimit(.minutes(1)), arguments: [0, 1, 32, 63, 65, 72])
    func rawWrongLength(count: Int) {
        let error = keysError { () throws(KeysError) in try ECDSASignature.rawToDER([UInt8](repeating: 1, count: count))
        }
        #expect(error?.kind == .malformedSignature(reason: "raw signature is \(count) bytes, not 64"))
    }

    static let badDER: [(String, String)] = [
        ("empty", ""),
        ("not a sequence", "0406020101020102"),
        ("truncated", "3006020101"),
        ("trailing byte", "300602010102010200"),
        ("non-minimal integer", "3007 02020001 020102"),
        ("long-form length", "308106020101020102"),
        ("negative R", "30060201ff020102"),
        ("R of 33 significant bytes", "3026 0221 01" + String(repeating: "00", count: 32) + " 020102"),
    ]

    @Test("derToRaw rejects what is not a canonical P-256 ECDSA-Sig-Value", .timeLimit(.minutes(1)), arguments: badDER)
    func badDERRejected(name: String, derHex: String) {
        let error = keysError { () throws(KeysError) in try ECDSASignature.derToRaw(bytes(hex: derHex)) }
        guard case .malformedSignature = error?.kind else {
            Issue.record("\(name): expected malformedSignature, got \(String(describing: error))")
            return
        }
        #expect(error?.description.hasPrefix("malformed ECDSA P-256 signature: ") == true, "\(name)")
    }
}
