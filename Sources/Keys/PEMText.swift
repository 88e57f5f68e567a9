import COpenSSL

/// What each loader expects, as error messages name it.
enum PEMLabel {
    static let privateKeyDescription = "PEM private key"
    static let publicKeyDescription = "PEM public key"
    static let certificateDescription = "PEM certificate"
    static let anyPrivateKeyDescription = "PEM private key (RSA or EC)"
}

/// PEM input made ready for OpenSSL, and able to say what it holds when OpenSSL cannot read it.
///
/// Surrounding whitespace is trimmed and carriage returns dropped, so CRLF files and pasted keys load.
/// Descriptions of the input name only its `-----BEGIN ...-----` labels, never its contents.
struct PEMText {
    let bytes: [UInt8]

    init(_ raw: some Collection<UInt8>) {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0D) }
        let withoutCR = raw.filter { $0 != 0x0D }
        guard let first = withoutCR.firstIndex(where: { !isSpace($0) }),
            let last = withoutCR.lastIndex(where: { !isSpace($0) })
        else {
            bytes = []
            return
        }
        bytes = Array(withoutCR[first...last]) + [0x0A]
    }

    /// Runs `body` with a read-only memory BIO over the text.
    func withMemoryBIO<R>(_ body: (OpaquePointer) -> R) throws(KeysError) -> R {
        try bytes.withUnsafeBufferPointer { (buffer) throws(KeysError) -> R in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else {
                throw OpenSSLError.failure("BIO_new_mem_buf")
            }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    /// The labels of the `-----BEGIN LABEL-----` lines, e.g. `["CERTIFICATE", "PRIVATE KEY"]`.
    var labels: [String] {
        let marker = Array("-----BEGIN ".utf8)
        var found: [String] = []
        var index = 0
        while let start = Self.find(marker, in: bytes, from: index) {
            let labelStart = start + marker.count
            let labelEnd = bytes[labelStart...].firstIndex { $0 == UInt8(ascii: "-") || $0 == 0x0A } ?? bytes.count
            found.append(Self.printableLabel(bytes[labelStart..<labelEnd]))
            index = labelEnd
        }
        return found
    }

    /// Whether the text is a passphrase-protected key (PKCS#8 `ENCRYPTED PRIVATE KEY` or a SEC1 header).
    var looksEncrypted: Bool {
        labels.contains("ENCRYPTED PRIVATE KEY") || Self.find(Array("Proc-Type: 4,ENCRYPTED".utf8), in: bytes) != nil
    }

    /// Why no key of the kind `expected` was read, in words safe to show.
    func failureReason(expected: String, accepts: (String) -> Bool, errors: [String]) -> String {
        if bytes.isEmpty { return "the input is empty" }
        let labels = labels
        if labels.isEmpty { return "the input has no '-----BEGIN' line, so it is not PEM" }
        if !labels.contains(where: accepts) {
            let names = labels.map { "'\($0)'" }.joined(separator: ", ")
            return "the input holds only PEM blocks labelled \(names), none of them a \(expected)"
        }
        let detail = errors.isEmpty ? "" : " (OpenSSL: \(errors.joined(separator: "; ")))"
        return "the PEM block could not be decoded\(detail)"
    }

    private static func printableLabel(_ label: ArraySlice<UInt8>) -> String {
        let allowed =
            label.count <= 40
            && label.allSatisfy { $0 == 0x20 || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }
        return allowed ? String(decoding: label, as: UTF8.self) : "(unrecognised label)"
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard needle.count <= haystack.count, start <= haystack.count - needle.count else { return nil }
        for index in start...(haystack.count - needle.count)
        where haystack[index..<index + needle.count].elementsEqual(needle) {
            return index
        }
        return nil
    }
}
