import COpenSSL

/// Assembles and signs one X.509 v3 certificate with non-variadic OpenSSL 3 calls.
///
/// Order matters: the subject's public key goes in before subjectKeyIdentifier ("hash") is computed, the
/// issuer is set before authorityKeyIdentifier ("keyid") is, and every extension before `sign`.
/// Owns its `X509` until `sign` hands it to the returned `Certificate`.
final class CertificateBuilder {
    private var x509: OpaquePointer?
    private let issuer: Certificate?

    /// Starts a certificate for `subjectKey`, to be signed by `issuer`'s key (nil: self-signed).
    init(subjectKey: PrivateKey, issuer: Certificate?, validity: CertificateValidity) throws(KeysError) {
        guard validity.notAfter > validity.notBefore else {
            throw .invalidCertificateRequest(
                "notAfter \(validity.notAfter) is not after notBefore \(validity.notBefore)")
        }
        self.issuer = issuer
        OpenSSLError.clear()
        guard let x509 = X509_new() else { throw OpenSSLError.failure("X509_new") }
        self.x509 = x509
        guard X509_set_version(x509, Int(X509_VERSION_3)) == 1 else { throw OpenSSLError.failure("X509_set_version") }
        try setRandomSerial(x509)
        guard ASN1_TIME_set(X509_getm_notBefore(x509), time_t(validity.notBefore)) != nil,
            ASN1_TIME_set(X509_getm_notAfter(x509), time_t(validity.notAfter)) != nil
        else {
            throw .invalidCertificateRequest("validity \(validity.notBefore)...\(validity.notAfter) is out of range")
        }
        guard X509_set_pubkey(x509, subjectKey.pkey) == 1 else { throw OpenSSLError.failure("X509_set_pubkey") }
    }

    deinit {
        x509.map { X509_free($0) }
    }

    /// Appends `field=value` (field a short name such as `CN`, `UID`, `O`) to the subject.
    func addSubject(_ field: String, _ value: String) throws(KeysError) {
        let x509 = try current()
        OpenSSLError.clear()
        let added = Array(value.utf8).withNonNullBytes { bytes, count in
            X509_NAME_add_entry_by_txt(X509_get_subject_name(x509), field, MBSTRING_UTF8, bytes, Int32(count), -1, 0)
        }
        guard added == 1 else {
            throw .invalidCertificateRequest("subject \(field)=\(String(reflecting: value)): \(reasons())")
        }
    }

    /// Adds an extension OpenSSL builds from its configuration syntax, e.g. `critical,CA:TRUE`.
    func addExtension(nid: Int32, _ value: String) throws(KeysError) {
        let x509 = try current()
        OpenSSLError.clear()
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.x509 ?? x509, x509, nil, nil, 0)
        guard let created = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
            throw OpenSSLError.failure("X509V3_EXT_conf_nid(\(value))")
        }
        defer { X509_EXTENSION_free(created) }
        guard X509_add_ext(x509, created, -1) == 1 else { throw OpenSSLError.failure("X509_add_ext") }
    }

    /// Adds subjectAltName with each name as a DNS name or an IP address (`DNS:` or `IP:` may force which).
    func addSubjectAlternativeNames(_ names: [String]) throws(KeysError) {
        guard !names.isEmpty else { return }
        let x509 = try current()
        OpenSSLError.clear()
        guard let stack = OPENSSL_sk_new_null() else { throw OpenSSLError.failure("OPENSSL_sk_new_null") }
        defer { GENERAL_NAMES_free(stack) }  // frees the names pushed so far too
        for name in names {
            let (type, value) = Self.generalName(name)
            guard !value.isEmpty, !value.utf8.contains(0) else {
                throw .invalidCertificateRequest("subject alternative name \(String(reflecting: name)) is empty")
            }
            guard let general = a2i_GENERAL_NAME(nil, nil, nil, type, value, 0) else {
                throw .invalidCertificateRequest("subject alternative name \(String(reflecting: name)): \(reasons())")
            }
            guard OPENSSL_sk_push(stack, general) > 0 else {
                GENERAL_NAME_free(general)
                throw OpenSSLError.failure("OPENSSL_sk_push")
            }
        }
        guard
            X509_add1_ext_i2d(x509, NID_subject_alt_name, UnsafeMutableRawPointer(stack), 0, UInt(X509V3_ADD_DEFAULT))
                == 1
        else { throw OpenSSLError.failure("X509_add1_ext_i2d(subjectAltName)") }
    }

    /// Adds an extension given as an OID and a DER value.
    func addExtension(_ custom: CertificateExtension) throws(KeysError) {
        let x509 = try current()
        guard DER.isSingleElement(custom.der) else {
            throw .invalidCertificateRequest("the value of extension \(custom.oid) is not one DER element")
        }
        OpenSSLError.clear()
        guard let object = OBJ_txt2obj(custom.oid, 1) else {
            OpenSSLError.clear()
            throw .invalidCertificateRequest("extension OID \(String(reflecting: custom.oid)) is not a dotted OID")
        }
        defer { ASN1_OBJECT_free(object) }
        guard let octets = ASN1_OCTET_STRING_new() else { throw OpenSSLError.failure("ASN1_OCTET_STRING_new") }
        defer { ASN1_OCTET_STRING_free(octets) }
        guard custom.der.withNonNullBytes({ ASN1_OCTET_STRING_set(octets, $0, Int32($1)) }) == 1 else {
            throw OpenSSLError.failure("ASN1_OCTET_STRING_set")
        }
        guard let created = X509_EXTENSION_create_by_OBJ(nil, object, custom.isCritical ? 1 : 0, octets) else {
            throw OpenSSLError.failure("X509_EXTENSION_create_by_OBJ")
        }
        defer { X509_EXTENSION_free(created) }
        guard X509_add_ext(x509, created, -1) == 1 else { throw OpenSSLError.failure("X509_add_ext") }
    }

    /// Signs with `key` (the issuer's, or the subject's own when self-signed) over SHA-256.
    func sign(with key: PrivateKey) throws(KeysError) -> Certificate {
        let x509 = try current()
        OpenSSLError.clear()
        guard X509_set_issuer_name(x509, X509_get_subject_name(issuer?.x509 ?? x509)) == 1 else {
            throw OpenSSLError.failure("X509_set_issuer_name")
        }
        guard X509_sign(x509, key.pkey, EVP_sha256()) > 0 else { throw OpenSSLError.failure("X509_sign") }
        self.x509 = nil
        return try Certificate(owning: x509)
    }

    private func current() throws(KeysError) -> OpaquePointer {
        guard let x509 else { throw .invalidCertificateRequest("the certificate is already signed") }
        return x509
    }

    /// A positive 127-bit random serial number (RFC 5280 allows up to 20 octets).
    private func setRandomSerial(_ x509: OpaquePointer) throws(KeysError) {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard RAND_bytes(&bytes, Int32(bytes.count)) == 1 else { throw OpenSSLError.failure("RAND_bytes") }
        bytes[0] = (bytes[0] & 0x7F) | 0x40  // positive, and never shorter than 16 octets
        guard let serial = BN_bin2bn(bytes, Int32(bytes.count), nil) else { throw OpenSSLError.failure("BN_bin2bn") }
        defer { BN_free(serial) }
        guard BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(x509)) != nil else {
            throw OpenSSLError.failure("BN_to_ASN1_INTEGER")
        }
    }

    private static func generalName(_ name: String) -> (type: Int32, value: String) {
        if name.hasPrefix("DNS:") { return (GEN_DNS, String(name.dropFirst(4))) }
        if name.hasPrefix("IP:") { return (GEN_IPADD, String(name.dropFirst(3))) }
        return (IPAddressText.isIPAddress(name) ? GEN_IPADD : GEN_DNS, name)
    }

    private func reasons() -> String {
        let errors = OpenSSLError.drain()
        return errors.isEmpty ? "rejected by OpenSSL" : errors.joined(separator: "; ")
    }
}
