import COpenSSL

/// Writable memory BIOs for OpenSSL's PEM writers.
enum MemoryBIO {
    /// Runs `write` against a fresh memory BIO and returns what it wrote.
    ///
    /// `secure` uses `BIO_s_secmem`, whose buffer is cleansed when freed: use it for private keys.
    static func collect(
        function: String,
        secure: Bool = false,
        _ write: (OpaquePointer) -> Int32
    ) throws(KeysError) -> String {
        OpenSSLError.clear()
        guard let bio = BIO_new(secure ? BIO_s_secmem() : BIO_s_mem()) else {
            throw OpenSSLError.failure("BIO_new")
        }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw OpenSSLError.failure(function) }
        var data: UnsafeMutablePointer<CChar>? = nil
        let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &data)  // BIO_get_mem_data is a macro over this call
        guard length > 0, let data else { throw OpenSSLError.failure("BIO_get_mem_data") }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    }
}
