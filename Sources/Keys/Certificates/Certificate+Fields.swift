import COpenSSL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Certificate {
    /// The subject as one RFC 2253 line, most specific first: `UID=com.example.app,CN=Apple Push Services: ...`.
    ///
    /// Non-ASCII text is kept as UTF-8; control characters and RFC 2253 specials are escaped.
    public var subject: String {
        Self.rfc2253(X509_get_subject_name(x509))
    }

    /// The issuer as one RFC 2253 line.
    public var issuer: String {
        Self.rfc2253(X509_get_issuer_name(x509))
    }

    /// The subject's common name (CN); the most specific one when there are several.
    public var commonName: String? {
        subjectValues(nid: NID_commonName).last
    }

    /// The subject's user ids (UID, OID 0.9.2342.19200300.100.1.1): Apple puts the bundle id there.
    public var subjectUIDs: [String] {
        subjectValues(nid: NID_userId)
    }

    /// Whether `unixTime` lies within `notBefore...notAfter`.
    public func isValid(at unixTime: Int64) -> Bool {
        notBefore <= unixTime && unixTime <= notAfter
    }

    /// The values of every subject entry with `nid`, as UTF-8, in certificate order.
    func subjectValues(nid: Int32) -> [String] {
        guard let name = X509_get_subject_name(x509) else { return [] }
        var values: [String] = []
        var position: Int32 = -1
        while true {
            position = X509_NAME_get_index_by_NID(name, nid, position)
            guard position >= 0 else { break }
            guard let entry = X509_NAME_get_entry(name, position),
                let data = X509_NAME_ENTRY_get_data(entry)
            else { continue }
            var utf8: UnsafeMutablePointer<UInt8>? = nil
            let length = ASN1_STRING_to_UTF8(&utf8, data)
            if length >= 0, let utf8 {
                values.append(String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self))
            }
            herald_OPENSSL_free(utf8)
        }
        OpenSSLError.clear()
        return values
    }

    /// An `ASN1_TIME` as UNIX seconds, or nil if OpenSSL cannot decode it.
    static func unixTime(_ time: UnsafePointer<ASN1_TIME>?) -> Int64? {
        guard let time else { return nil }
        var broken = tm()
        guard ASN1_TIME_to_tm(time, &broken) == 1 else {
            OpenSSLError.clear()
            return nil
        }
        return Int64(timegm(&broken))
    }

    private static func rfc2253(_ name: OpaquePointer?) -> String {
        guard let name, let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        let flags = herald_XN_FLAG_RFC2253() & ~UInt(ASN1_STRFLGS_ESC_MSB)
        guard X509_NAME_print_ex(bio, name, 0, flags) > 0 else {
            OpenSSLError.clear()
            return ""
        }
        var data: UnsafeMutablePointer<CChar>? = nil
        let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &data)  // BIO_get_mem_data is a macro over this call
        guard length > 0, let data else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    }
}
