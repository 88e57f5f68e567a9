import COpenSSL

/// SHA-256 (FIPS 180-4) by OpenSSL.
public enum SHA256 {
    /// Bytes in a digest.
    public static let digestSize = 32

    /// The 32-byte SHA-256 digest of `bytes`.
    ///
    /// SHA-256 is built into OpenSSL's default provider. Should OpenSSL still fail (an installation whose
    /// configuration loads no provider), this returns an empty array rather than trapping: callers that
    /// compare digests should treat a result whose count is not `digestSize` as a failure.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: digestSize)
        var size: UInt32 = 0
        OpenSSLError.clear()
        let status = bytes.withNonNullBytes { input, count in
            digest.withUnsafeMutableBufferPointer { EVP_Digest(input, count, $0.baseAddress, &size, EVP_sha256(), nil) }
        }
        guard status == 1, size == UInt32(digestSize) else {
            OpenSSLError.clear()
            return []
        }
        return digest
    }
}
