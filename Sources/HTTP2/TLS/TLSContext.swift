import COpenSSL
import Keys

/// An OpenSSL `SSL_CTX` built once from a `TLSConfiguration` and shared by every `TLSSession` made from it.
///
/// Thread-safety: immutable after init; sessions may be created from it on any thread at once.
/// Lifecycle: each session keeps its context alive; the `SSL_CTX` is freed with the last of them.
// SAFETY: the SSL_CTX is fully configured in init and never changed afterwards. OpenSSL allows SSL_new and
// handshakes on many threads over one configured SSL_CTX (its session cache and reference counts lock
// internally). `alpn` is immutable and Sendable.
public final class TLSContext: @unchecked Sendable {
    /// The `SSL_CTX *`.
    let context: OpaquePointer
    public let configuration: TLSConfiguration
    /// The server's ALPN preference, read by `selectALPN` through an unretained pointer: it lives as long
    /// as the SSL_CTX because every SSL holds this context.
    private let alpn: ALPNPreference

    public init(_ configuration: TLSConfiguration) throws(TLSError) {
        TLSErrorStack.clear()
        let method = configuration.role == .client ? TLS_client_method() : TLS_server_method()
        guard let context = SSL_CTX_new(method) else {
            throw .invalidConfiguration(reason: "SSL_CTX_new: \(TLSErrorStack.summary(or: "failed"))")
        }
        self.context = context
        self.configuration = configuration
        self.alpn = ALPNPreference(configuration.alpnProtocols)
        try configureProtocol()
        try configureTrust()
        try configureIdentity()
        try configureALPN()
    }

    deinit {
        SSL_CTX_free(context)
    }

    private func configureProtocol() throws(TLSError) {
        let version = configuration.minimumVersion == .tls13 ? TLS1_3_VERSION : TLS1_2_VERSION
        guard herald_SSL_CTX_set_min_proto_version(context, version) == 1 else {
            throw .invalidConfiguration(
                reason: "cannot set the minimum TLS version: \(TLSErrorStack.summary(or: "refused"))")
        }
        // Records written to a memory BIO never block; partial writes let SSL_write return per record.
        _ = herald_SSL_CTX_set_mode(context, Int(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER))
        // RFC 9113 section 9.2.1: HTTP/2 over TLS 1.2 must not renegotiate.
        _ = SSL_CTX_set_options(context, herald_SSL_OP_NO_RENEGOTIATION())
    }

    private func configureTrust() throws(TLSError) {
        guard configuration.verifyPeer else {
            SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
            return
        }
        let mode =
            configuration.role == .server && configuration.requireClientCertificate
            ? SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT : SSL_VERIFY_PEER
        SSL_CTX_set_verify(context, mode, nil)
        if configuration.role == .server {
            // Resumed sessions of a verifying server need an id context, or resumption fails the handshake.
            let id: [UInt8] = Array("herald".utf8)
            _ = SSL_CTX_set_session_id_context(context, id, UInt32(id.count))
        }
        let roots: [Certificate]
        switch configuration.trustRoots {
        case .systemDefault:
            guard SSL_CTX_set_default_verify_paths(context) == 1 else {
                throw .invalidConfiguration(
                    reason: "cannot load the system trust store: \(TLSErrorStack.summary(or: "refused"))")
            }
            return
        case .file(let path):
            do {
                roots = try Certificate.chain(contentsOfFile: path)
            } catch {
                throw .invalidConfiguration(reason: "trust roots: \(error)")
            }
        case .certificates(let certificates):
            roots = certificates
        }
        guard let store = SSL_CTX_get_cert_store(context) else {
            throw .invalidConfiguration(reason: "SSL_CTX_get_cert_store returned no store")
        }
        for root in roots where X509_STORE_add_cert(store, root.x509) != 1 {
            throw .invalidConfiguration(
                reason: "cannot trust \(root.subject): \(TLSErrorStack.summary(or: "X509_STORE_add_cert failed"))")
        }
    }

    private func configureIdentity() throws(TLSError) {
        guard let leaf = configuration.certificateChain.first else {
            guard configuration.role == .client, configuration.privateKey == nil else {
                throw .invalidConfiguration(
                    reason: configuration.role == .server
                        ? "a server needs a certificate chain and its private key"
                        : "a private key was given without its certificate")
            }
            return
        }
        guard let key = configuration.privateKey else {
            throw .invalidConfiguration(reason: "the certificate \(leaf.subject) was given without its private key")
        }
        TLSErrorStack.clear()
        guard SSL_CTX_use_certificate(context, leaf.x509) == 1 else {
            throw .invalidConfiguration(reason: "cannot use \(leaf.subject): \(TLSErrorStack.summary(or: "refused"))")
        }
        guard SSL_CTX_use_PrivateKey(context, key.pkey) == 1, SSL_CTX_check_private_key(context) == 1 else {
            let detail = TLSErrorStack.summary(or: "refused")
            throw .invalidConfiguration(
                reason: "the private key does not match the certificate \(leaf.subject): \(detail)")
        }
        for extra in configuration.certificateChain.dropFirst()
        where herald_SSL_CTX_add1_chain_cert(context, extra.x509) != 1 {
            throw .invalidConfiguration(
                reason: "cannot add \(extra.subject) to the chain: \(TLSErrorStack.summary(or: "refused"))")
        }
    }

    private func configureALPN() throws(TLSError) {
        let wire = try ALPN.wireFormat(configuration.alpnProtocols)
        guard !wire.isEmpty else { return }
        switch configuration.role {
        case .client:
            // Unlike most of OpenSSL, SSL_CTX_set_alpn_protos returns 0 on success.
            guard SSL_CTX_set_alpn_protos(context, wire, UInt32(wire.count)) == 0 else {
                throw .invalidConfiguration(reason: "SSL_CTX_set_alpn_protos: \(TLSErrorStack.summary(or: "refused"))")
            }
        case .server:
            SSL_CTX_set_alpn_select_cb(context, selectALPN, Unmanaged.passUnretained(alpn).toOpaque())
        }
    }
}
